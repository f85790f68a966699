// The HTML replay's code: draws the positions of viewer_data.py's data, one viewer at a time.
// It only draws: every card, text and move it shows was read through the engine's model of what
// that viewer knew when the file was written.  No network, no storage, no library.
(function () {
  "use strict";
  var PART = { zones: 0, status: 1, vars: 2, move: 3, events: 4, why: 5, moves: 6 };
  var HIDDEN = "??";
  var STATUS = { pass: "PASS", fail: "FAIL", "not applicable": "SKIP" };
  var LOGGED = { log: true, chance: true };  // what the log beside the table lists under a move

  function el(tag, props) {
    var node = document.createElement(tag);
    for (var key in props || {}) {
      if (key === "text") node.textContent = props[key];
      else if (key === "cls") node.className = props[key];
      else node.setAttribute(key, props[key]);
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function escapeRegExp(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  function unpack(root) {  // the data: JSON, gzipped, in base64 (viewer_page.packed)
    var text = atob(root.querySelector("script.cg-data").textContent.trim());
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  function Viewer(root, data) {
    var pool = data.pool, positions = data.positions, last = positions.length - 1;
    var names = Object.keys(data.faces).sort(function (a, b) { return b.length - a.length; });
    var cardWords = names.length ? new RegExp("(?<![\\w.])(" + names.map(escapeRegExp).join("|") + ")(?![\\w.])") : null;
    var seats = [];
    for (var s = 0; s < data.players; s++) seats.push("P" + s);
    var here = { pos: 0, view: data.viewers.length - 1, timer: null };
    var lone = document.querySelectorAll(".cg-viewer").length === 1;  // a page of its own: keys and address are its

    function part(pos, view, name) {
      var index = positions[pos][2][view][PART[name]];
      return index === null ? null : pool[index];
    }

    // ---- cards and texts
    function cardNode(name) {
      if (name === HIDDEN) return backNode(1);
      var up = name.charAt(name.length - 1) === "*";
      var id = up ? name.slice(0, -1) : name;
      var face = data.faces[id] || [id, "", ""];
      var cls = "cg-card" + (face[2] ? " cg-" + face[2] : "") + (up ? " cg-up" : "") + (face[0].length > 3 ? " cg-long" : "");
      var title = id + (up ? ": face up, every seat sees it" : "");
      return el("span", { cls: cls, "data-card": id, title: title },
        el("span", { cls: "cg-rank", text: face[0] }), face[1] ? el("span", { cls: "cg-suit", text: face[1] }) : null);
    }

    function backNode(count) {
      var title = count === 1 ? "a card this view cannot see" : count + " cards this view cannot see";
      return el("span", { cls: "cg-card cg-back", "data-card": HIDDEN, "data-hidden": String(count), title: title },
        count > 1 ? el("span", { cls: "cg-count", text: "×" + count }) : null);
    }

    function textNode(text) {  // a text with every card name in it drawn with its suit and colour
      var span = el("span", {});
      if (!cardWords) { span.textContent = text; return span; }
      text.split(cardWords).forEach(function (piece, i) {
        if (i % 2 === 0) { if (piece) span.appendChild(document.createTextNode(piece)); return; }
        var face = data.faces[piece];
        span.appendChild(el("span", { cls: "cg-name" + (face[2] ? " cg-" + face[2] : ""), title: piece }, face[0] + face[1]));
      });
      return span;
    }

    function sourceTitle(file, line) {
      var lines = data.sources[file] || {};
      return file + ":" + line + (lines[String(line)] !== undefined ? "\n" + lines[String(line)].trim() : "");
    }

    // ---- the table
    function zoneNode(slot, cards, label) {
      var kind = slot[2], hidden = cards.filter(function (c) { return c === HIDDEN; }).length;
      var count = cards.length + (hidden ? " (" + (hidden === cards.length ? "hidden" : hidden + " hidden") + ")" : "");
      var row = el("div", { cls: "cg-cards cg-" + kind + (cards.length > 6 ? " cg-tight" : "") });
      if (!cards.length) row.appendChild(el("span", { cls: "cg-empty", text: "empty" }));
      for (var i = 0; i < cards.length; i++) {
        if (cards[i] === HIDDEN && kind === "pile") {  // a run of unseen cards in a pile: one back and its size
          var run = 1;
          while (i + run < cards.length && cards[i + run] === HIDDEN) run++;
          row.appendChild(backNode(run));
          i += run - 1;
        } else {
          row.appendChild(cardNode(cards[i]));
        }
      }
      return el("div", { cls: "cg-zone", "data-zone": slot[0], "data-seat": slot[1] || "", "data-size": String(cards.length) },
        el("div", { cls: "cg-zone-name" }, label, el("span", { cls: "cg-size", text: count })), row);
    }

    function varsNode(list) {
      if (!list || !list.length) return null;
      var table = el("dl", { cls: "cg-vars" });
      list.forEach(function (pair) { table.appendChild(el("dt", { text: pair[0] })); table.appendChild(el("dd", {}, textNode(pair[1]))); });
      return table;
    }

    function drawTable() {
      var zones = part(here.pos, here.view, "zones"), status = part(here.pos, here.view, "status");
      var vars = part(here.pos, here.view, "vars"), viewer = data.viewers[here.view];
      var winners = status.winning_seats || [];
      var shared = el("section", { cls: "cg-shared", "aria-label": "the table" }, el("h2", { text: "Table" }));
      var panels = {};
      seats.forEach(function (seat) {
        var badges = el("span", { cls: "cg-badges" });
        if (status.to_act === seat) badges.appendChild(el("span", { cls: "cg-badge cg-acting", text: "to act" }));
        if (viewer === seat) badges.appendChild(el("span", { cls: "cg-badge cg-you", text: "this view" }));
        if (winners.indexOf(seat) >= 0)
          badges.appendChild(el("span", { cls: "cg-badge cg-winner", text: "winner" }));
        panels[seat] = el("section", { cls: "cg-seat" + (status.to_act === seat ? " cg-to-act" : "") + (viewer === seat ? " cg-mine" : ""),
          "data-seat": seat }, el("h2", {}, seat, badges));
      });
      data.zones.forEach(function (slot, i) {
        var cards = pool[zones[i]];
        if (slot[1] === null) shared.appendChild(zoneNode(slot, cards, slot[0]));
        else panels[slot[1]].appendChild(zoneNode(slot, cards, slot[0]));
      });
      var tableVars = varsNode(vars.table);
      if (tableVars) shared.appendChild(tableVars);
      seats.forEach(function (seat) { var v = varsNode(vars.seats[seat]); if (v) panels[seat].appendChild(v); });
      var seatRow = el("div", { cls: "cg-seat-row" });
      seats.forEach(function (seat) { seatRow.appendChild(panels[seat]); });
      root.querySelector(".cg-board").replaceChildren(shared, seatRow);
      root.querySelector(".cg-status").replaceChildren(statusNode(status));
    }

    function statusNode(status) {
      var parts = [], line = el("p", { cls: "cg-status-line" });
      if (status.fault) parts.push("the game stopped with an error");
      else if (status.over) parts.push("game over; winners " + (status.winners || "hidden") + (status.capped ? " (stopped by its own cap, not a real end)" : ""));
      else if (status.paused === "phase") parts.push("paused at the start of phase " + status.phase);
      else if (status.paused) parts.push("paused before a chance event" + (status.line ? " (line " + status.line + ")" : ""));
      else parts.push((status.to_act === "table" ? "table decision" : status.to_act + " to act") + (status.prompt ? ": " + status.prompt : ""));
      if (status.phase && !status.paused) parts.push("phase " + status.phase);
      parts.push("scores " + (status.scores === null ? (status.fault ? "-" : "hidden") : status.scores));
      line.appendChild(textNode(parts.join(" · ")));
      var box = el("div", {}, line);
      if (status.fault) box.appendChild(el("pre", { cls: "cg-fault", text: status.fault }));
      return box;
    }

    // ---- the move, its why, what it caused, and the moves open now
    function who(move) { return move[0] === "table" ? "the table" : move[0]; }

    function seen(viewer) { return viewer === "spectator" ? "the spectator" : viewer; }

    function stopped(status) {  // where a game stepped through its pause points stands
      return status.paused === "phase" ? "the start of phase " + status.phase
        : "a chance event" + (status.line ? " (line " + status.line + ")" : "");
    }

    function drawStep() {
      var pos = here.pos, position = positions[pos], move = part(pos, here.view, "move");
      var why = part(pos, here.view, "why"), events = part(pos, here.view, "events"), moves = part(pos, here.view, "moves");
      var viewer = data.viewers[here.view];
      var head = el("h2", { cls: "cg-move-head" });
      var status = part(pos, here.view, "status");
      if (pos === 0) head.textContent = "The start" + (position[1] ? ", " + stopped(status) : ": the set-up, before any move");
      else if (move) head.append("Move " + position[0] + ": " + who(move) + " chose ", el("code", {}, textNode(move[1])));
      else head.textContent = "Step " + pos + ": the game ran on by itself to " + (position[1] ? stopped(status) : "where it stands");
      if (why && why.hidden) head.appendChild(el("span", { cls: "cg-note", text: " hidden from the other seats until revealed" }));
      var box = el("section", { cls: "cg-why", "aria-label": "the move and why" }, head);
      box.appendChild(whyNode(why, move));
      box.appendChild(el("h3", { text: viewer === "all" ? "What happened" : "What " + seen(viewer) + " saw happen" }));
      box.appendChild(eventsNode(events));
      if (moves) box.appendChild(movesNode(moves));
      root.querySelector(".cg-step").replaceChildren(box);
    }

    function whyNode(why, move) {
      var box = el("div", { cls: "cg-why-body" });
      if (!why) { box.appendChild(el("p", { cls: "cg-quiet", text: move ? "" : "No move led here: nobody decided anything." })); return box; }
      var verdict = why.legal === null ? "Not judged in this view: " + why.verdict : why.verdict;
      box.appendChild(el("p", { cls: "cg-verdict " + (why.legal === null ? "cg-unjudged" : why.legal ? "cg-legal" : "cg-illegal") }, textNode(verdict)));
      why.rules.forEach(function (rule) {
        var status = STATUS[rule.status] || rule.status.toUpperCase();
        var details = el("details", { cls: "cg-rule cg-" + status.toLowerCase(), open: "" },
          el("summary", {}, el("b", { cls: "cg-rule-status", text: status }), " rule ", el("code", { text: rule.name }),
            rule.doc ? " — " + rule.doc : ""));
        if (rule.verdict) details.appendChild(el("p", {}, (rule.status === "not applicable" ? "does not apply: " : "because: "), textNode(rule.verdict)));
        details.appendChild(sourceNode(rule.span));
        if (rule.values.length) {
          var witnesses = {};
          rule.witnesses.forEach(function (w) { witnesses[w[0]] = w[1]; });
          var table = el("table", { cls: "cg-values" }, el("caption", { text: "looked at" }));
          rule.values.forEach(function (pair) {
            table.appendChild(el("tr", {}, el("td", {}, el("code", {}, textNode(pair[0]))),
              el("td", {}, el("code", {}, textNode(pair[1]))), el("td", { cls: "cg-quiet" }, witnesses[pair[0]] ? textNode("(" + witnesses[pair[0]] + ")") : null)));
          });
          details.appendChild(table);
        }
        box.appendChild(details);
      });
      return box;
    }

    function sourceNode(span) {
      var file = span[0], lines = data.sources[file] || {};
      var pre = el("pre", { cls: "cg-source" }, el("span", { cls: "cg-where", text: "--> " + file + ":" + span[1] + "\n" }));
      var width = String(span[2]).length;
      for (var n = span[1]; n <= span[2]; n++) {
        var number = String(n);
        while (number.length < width) number = " " + number;
        pre.appendChild(el("span", { cls: "cg-line-no", text: number + " | " }));
        pre.appendChild(document.createTextNode((lines[String(n)] || "") + "\n"));
      }
      return pre;
    }

    function eventsNode(events) {
      if (!events || !events.length) return el("p", { cls: "cg-quiet", text: "nothing else" });
      var list = el("ul", { cls: "cg-events" });
      events.forEach(function (e) {
        var item = el("li", { cls: "cg-event cg-event-" + e[0] }, textNode(e[1]));
        if (e.length > 2) item.appendChild(el("span", { cls: "cg-where", title: sourceTitle(e[2], e[3]), text: " " + e[2] + ":" + e[3] }));
        list.appendChild(item);
      });
      return list;
    }

    function movesNode(moves) {
      var next = here.pos < last ? part(here.pos + 1, here.view, "move") : null;
      var box = el("div", { cls: "cg-open" }, el("h3", { text: "Moves open here (" + moves.length + ")" }));
      var list = el("ol", { cls: "cg-moves" });
      var marked = false;
      moves.forEach(function (m) {
        var chosen = !marked && next && next[1] === m && m.indexOf(HIDDEN) < 0;
        marked = marked || chosen;
        list.appendChild(el("li", { cls: chosen ? "cg-chosen" : "", title: chosen ? "the move made next" : "" }, textNode(m)));
      });
      box.appendChild(list);
      return box;
    }

    // ---- the log beside the table
    function drawLog() {
      var list = el("ol", { cls: "cg-log-list", start: "0" });
      positions.forEach(function (position, pos) {
        var move = part(pos, here.view, "move"), events = part(pos, here.view, "events") || [];
        var status = part(pos, here.view, "status");
        var label = pos === 0 ? "the set-up" : move ? who(move) + ": " + move[1] : position[1] ? "on to " + stopped(status) : "on to the end";
        var item = el("li", { "data-pos": String(pos), tabindex: "-1" }, el("span", { cls: "cg-log-step", text: pos + ". " }), textNode(label));
        var logged = events.filter(function (e) { return LOGGED[e[0]] && (e[0] !== "chance" || e[1].indexOf("chance:") === 0); });
        if (logged.length) {
          var sub = el("ul", {});
          logged.forEach(function (e) { sub.appendChild(el("li", {}, textNode(e[1]))); });
          item.appendChild(sub);
        }
        list.appendChild(item);
      });
      list.addEventListener("click", function (event) {
        var item = event.target.closest("li[data-pos]");
        if (item) go(Number(item.getAttribute("data-pos")));
      });
      var viewer = data.viewers[here.view];
      root.querySelector(".cg-log").replaceChildren(el("h2", { text: viewer === "all" ? "Log, everything" : "Log, as " + seen(viewer) + " saw it" }), list);
    }

    function markLog() {
      var list = root.querySelector(".cg-log-list");
      var old = list.querySelector(".cg-current");
      if (old) { old.classList.remove("cg-current"); old.removeAttribute("aria-current"); }
      var item = list.querySelector('li[data-pos="' + here.pos + '"]');
      item.classList.add("cg-current");
      item.setAttribute("aria-current", "step");
      var box = root.querySelector(".cg-log");
      if (item.offsetTop < box.scrollTop || item.offsetTop > box.scrollTop + box.clientHeight - 40)
        box.scrollTop = item.offsetTop - box.clientHeight / 3;
    }

    // ---- moving about
    function go(pos) {
      here.pos = Math.max(0, Math.min(last, pos));
      draw();
    }

    function show(view) {
      here.view = view;
      drawLog();
      draw();
    }

    function draw() {
      drawTable();
      drawStep();
      markLog();
      var slider = root.querySelector(".cg-slider");
      slider.value = String(here.pos);
      root.querySelector(".cg-jump").value = String(here.pos);
      root.querySelector(".cg-where-now").textContent = "position " + here.pos + " of " + last +
        (positions[here.pos][0] !== here.pos ? " (" + positions[here.pos][0] + " moves made)" : "");
      root.querySelectorAll(".cg-views button").forEach(function (b, i) { b.setAttribute("aria-pressed", String(i === here.view)); });
      root.setAttribute("data-pos", String(here.pos));
      root.setAttribute("data-view", data.viewers[here.view]);
      if (lone) {
        try { history.replaceState(null, "", "#step=" + here.pos + "&view=" + data.viewers[here.view]); } catch (e) { /* a page opened without an address */ }
      }
    }

    function play() {
      var button = root.querySelector('[data-go="play"]');
      if (here.timer !== null) { clearInterval(here.timer); here.timer = null; button.textContent = "▶ play"; return; }
      if (here.pos === last) go(0);
      button.textContent = "❚❚ pause";
      here.timer = setInterval(function () { if (here.pos >= last) play(); else go(here.pos + 1); }, 800);
    }

    // ---- the page's frame
    function build() {
      var about = [data.players + (data.players === 1 ? " player" : " players"), data.script + " (hash " + data.script_hash + ")"];
      if (data.seed !== undefined) about.splice(1, 0, "seed " + data.seed);
      var options = Object.keys(data.options).map(function (k) { return k + "=" + data.options[k]; });
      about.push(options.length ? "options " + options.join(", ") : "default options");
      var record = data.full
        ? "A full record: every seat's view, the spectator's and the all-seeing one, with the seed and every hidden move. Do not hand it to a player: a page written with --view P1 holds what P1 knew, and nothing else."
        : "What " + seen(data.viewers[0]) + " knew, and nothing else: this page was written with --view " + data.viewers[0] + ", so it holds no other view, no seed and no card " + seen(data.viewers[0]) + " did not see.";
      var views = el("div", { cls: "cg-views", role: "group", "aria-label": "whose view" }, el("span", { cls: "cg-label", text: "View " }));
      data.viewers.forEach(function (name, i) {
        var button = el("button", { type: "button", "data-view": name, "aria-pressed": "false", title: name === "all" ? "everything, hidden cards included" : name === "spectator" ? "what anyone watching the table sees" : "what " + name + " knew" }, name);
        button.addEventListener("click", function () { show(i); });
        views.appendChild(button);
      });
      var slider = el("input", { type: "range", cls: "cg-slider", min: "0", max: String(last), value: "0", "aria-label": "position in the game" });
      slider.addEventListener("input", function () { go(Number(slider.value)); });
      var jump = el("input", { type: "number", cls: "cg-jump", min: "0", max: String(last), value: "0", "aria-label": "go to position" });
      jump.addEventListener("change", function () { if (jump.value !== "") go(Number(jump.value)); });
      var buttons = [["first", "« start", function () { go(0); }], ["back", "◀ back", function () { go(here.pos - 1); }],
        ["play", "▶ play", play], ["next", "next ▶", function () { go(here.pos + 1); }], ["last", "end »", function () { go(last); }]];
      var timeline = el("div", { cls: "cg-timeline" });
      buttons.forEach(function (b) {
        var button = el("button", { type: "button", "data-go": b[0] }, b[1]);
        button.addEventListener("click", b[2]);
        timeline.appendChild(button);
      });
      timeline.append(slider, el("label", { cls: "cg-jump-label" }, "go to ", jump), el("span", { cls: "cg-where-now" }));
      var keys = el("p", { cls: "cg-keys", text: "Keys: ← → a step, PgUp PgDn ten, Home End the ends; click a line of the log to go there." });
      var frame = el("div", { cls: "cg-frame" },
        el("header", { cls: "cg-head" }, el("h1", { text: data.title }), el("p", { cls: "cg-about", text: about.join(" · ") }),
          el("p", { cls: "cg-record " + (data.full ? "cg-full" : "cg-one"), text: record })),
        el("nav", { cls: "cg-controls" }, views, timeline, keys),
        el("div", { cls: "cg-body" },
          el("main", { cls: "cg-main" }, el("div", { cls: "cg-status" }), el("div", { cls: "cg-board" }), el("div", { cls: "cg-step" })),
          el("aside", { cls: "cg-log", "aria-label": "the log" })));
      root.appendChild(frame);
      var keyTarget = lone ? document : root;
      if (!lone) root.setAttribute("tabindex", "0");
      keyTarget.addEventListener("keydown", function (event) {
        var tag = event.target.tagName, type = event.target.type;
        if (tag === "INPUT" && (type === "number" || type === "range") || tag === "TEXTAREA" || event.altKey || event.ctrlKey || event.metaKey) return;
        var moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 };
        if (event.key in moves) go(here.pos + moves[event.key]);
        else if (event.key === "Home") go(0);
        else if (event.key === "End") go(last);
        else return;
        event.preventDefault();
      });
    }

    function fromAddress() {  // #step=12&view=P1: a moment of the game to send someone
      if (!lone) return;
      var found = /step=(\d+)/.exec(location.hash), view = /view=([\w]+)/.exec(location.hash);
      if (found) here.pos = Math.min(last, Number(found[1]));
      if (view && data.viewers.indexOf(view[1]) >= 0) here.view = data.viewers.indexOf(view[1]);
    }

    build();
    fromAddress();
    show(here.view);
  }

  document.querySelectorAll(".cg-viewer").forEach(function (root) {
    if (typeof DecompressionStream === "undefined") {
      root.appendChild(el("p", { text: "This browser is too old to open the replay: it needs DecompressionStream " +
        "(Chrome or Edge 80, Firefox 113, Safari 16.4 or later)." }));
      return;
    }
    unpack(root).then(function (data) { Viewer(root, data); root.setAttribute("data-ready", "true"); });
  });
})();
