"""The benchmark harness runs (tiny sizes, no timing asserted): `python -m bench` stays usable."""

from __future__ import annotations

from bench import harness
from bench.configs import CONFIGS, Config


def test_every_configuration_runs_on_both_sides():
    for cfg in CONFIGS:
        ok, why = harness.available(cfg)
        assert ok, why
        row = harness.run_config(cfg, scale=0.004, repeat=1)
        assert row["games"] >= 1 and row["engine_decisions_per_s"] > 0 and row["api_decisions_per_s"] > 0
        assert row["compiled_decisions_per_s"] > 0 and row["compiled_records_decisions_per_s"] > 0  # all compile
        for side in ("baseline", "tuned"):
            if {"baseline": cfg.baseline, "tuned": cfg.tuned}[side] is not None:
                assert row[f"{side}_decisions_per_s"] > 0 and row[f"ratio_{side}"] > 0
        if cfg.baseline is not None:
            assert row["ratio"] == row["ratio_baseline"]


def test_every_shipped_game_has_a_row():
    from helpers import GAMES
    rows = {cfg.script for cfg in CONFIGS}
    assert {f"games/{p.name}" for p in GAMES.glob("*.cardgame")} <= rows


def test_every_whole_bench_script_checks_cleanly():
    # bench/scripts holds whole games and one fragment they include (lang_patterns, no `players`);
    # no test played gin.cardgame, so a checker change refusing it went unseen
    from cardgame import interpreter
    from helpers import ROOT
    scripts = [p for p in sorted((ROOT / "bench" / "scripts").glob("*.cardgame"))
               if any(line.startswith("players ") for line in p.read_text().splitlines())]
    assert len(scripts) >= 5
    for path in scripts:
        errors = [d for d in interpreter.check_file(str(path))[3] if d.severity == "error"]
        assert errors == [], f"{path.name}: {errors}"


def test_explain_time():
    assert harness.explain_time(repeat=1)["explain_us"] > 0


def test_choose_time_compares_the_same_moves():
    figures = harness.choose_time(repeat=1, scale=0.01)
    assert figures["moves"] == 286 and figures["same_moves"] and figures["speedup"] > 0


def test_missing_scripts_and_baselines_are_skipped():
    assert harness.available(Config("x", "games/no_such_game.cardgame", "bench.baseline.bouncer"))[0] is False
    assert harness.available(Config("x", "games/bouncer.cardgame", "bench.baseline.no_such"))[0] is False
    assert harness.available(Config("x", "games/bouncer.cardgame", None, "bench.baseline.no_such"))[0] is False


def test_state_figures():
    figures = harness.state_figures(repeat=1)
    assert 0 < figures["deep_size_bytes"] < 10_000_000 and figures["clone_us"] > 0


def test_opcode_counts_are_exact_and_name_the_generated_code():
    """Two fresh processes count the same games alike (in this process, earlier tests leave
    tracing and caches behind that shift the count)."""
    import json
    import subprocess
    import sys
    command = [sys.executable, "-m", "bench.opcodes", "--only", "bouncer special", "-n", "1", "--json"]
    runs = [json.loads(subprocess.run(command, capture_output=True, text=True, check=True, cwd=harness.ROOT).stdout)
            for _ in range(2)]
    first, second = (run["rows"][0] for run in runs)
    assert first["engine"] == second["engine"] > first["tuned"] > 0
    assert first["decisions"] == second["decisions"] > 0
    assert "play_one" in [name for name, _ in first["functions"]]
    assert abs(sum(first["kinds"].values()) - first["engine"]) < 1e-6
    assert first["kinds"]["work and budgets"] > 0 and first["kinds"]["visibility"] > 0
    assert first["tuned_without_model"] > first["tuned"] / first["engine"]


def test_opcode_kinds_read_the_line():
    from bench.opcode_kinds import REST, kind_of
    assert kind_of("playout2_65", "vis[c200] = vis[c200] & -4611686018427387905") == "visibility"
    assert kind_of("playout2_65", "loc[c200] = t199") == "location"
    assert kind_of("draw_0_53", "if st.work > st.work_limit:") == "work and budgets"
    assert kind_of("playout2_65", "s461 = (po456.state + 11400714819323198485) & 18446744073709551615") == "agent's draw"
    assert kind_of("shuffle", "items[i], items[j] = items[j], items[i]") == "shuffle"
    assert kind_of("D_values_3", "t51.append(AT12[q50])") == REST


def test_check_scaling_checks_its_scripts_cleanly(tmp_path):
    from bench import check_scaling
    figures = check_scaling.check_per_kb(1, tmp_path, sizes=(2, 4))
    assert figures["check_factor"] > 0 and figures["open_factor"] > 0
    text = check_scaling.scaling_script(8)
    assert 7_000 < len(text) < 9_500 and text.count("\nrule ") > 20 and text.count(" + 1") > 500


def test_knowledge_figures():
    figures = harness.knowledge_figures(repeat=1)
    assert figures["script"] == "games/bouncer.cardgame" and figures["after_moves"] > 0
    assert figures["information_state_us"] > 0 and figures["information_state_after_move_us"] > 0
    assert 0 < figures["information_state_bytes"] < 100_000 and figures["determinize_ms"] > 0
