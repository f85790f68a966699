"""The definitions a definition calls, in an order where each comes after the ones it calls, so
that typing one (the checker) or writing its function (the code generator) never types or writes
another inside it: a chain of definitions each calling the next nested as deep as the chain (150
simple ones, or ten of 60 levels each, ran out of Python's stack: E0606, with no place to point
at).  Definitions calling each other round are typed and written as one group.
"""

from __future__ import annotations

from . import nodes as n


def calls(defines: dict) -> dict[str, list[str]]:
    """Each definition, in the order of declaration -> the definitions its body names, in the
    order met (a call, or a name read: a definition without parameters).  Read from the syntax
    alone, so a local name that hides a definition counts as a call of it: at worst an order
    with one more constraint."""
    out = {}
    for name, define in defines.items():
        named = {}
        for node in n.walk(define.body):
            if isinstance(node, n.Call) and node.func in defines:
                named.setdefault(node.func, None)
            elif isinstance(node, n.Name) and node.name in defines:
                named.setdefault(node.name, None)
        out[name] = list(named)
    return out


def callees_first(graph: dict, roots, done=lambda name: False) -> list[tuple[str, ...]]:
    """The definitions `roots` reach through `graph` (calls()), but those `done(name)`, grouped by
    the circles of calls they make (a definition that calls itself, or several that call each
    other round, are one group; any other is a group alone), each group after every group it
    calls; a group's members in the order of `graph` (the order of declaration)."""
    order = None  # each definition's place in `graph`: made once, when a group has several members
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    for start in roots:  # Tarjan's strongly connected components, without recursion
        if start in index or start not in graph or done(start):
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work = [(start, iter(graph[start]))]
        while work:
            node, callees = work[-1]
            for callee in callees:
                if callee not in index and done(callee):
                    continue
                if callee not in index:
                    index[callee] = low[callee] = len(index)
                    stack.append(callee)
                    on_stack.add(callee)
                    work.append((callee, iter(graph[callee])))
                    break
                if callee in on_stack:
                    low[node] = min(low[node], index[callee])
            else:
                work.pop()
                if work:
                    caller = work[-1][0]
                    low[caller] = min(low[caller], low[node])
                if low[node] == index[node]:  # a group, every group it calls already given
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1 and order is None:
                        order = {name: k for k, name in enumerate(graph)}
                    out.append(tuple(sorted(group, key=order.__getitem__)) if len(group) > 1 else tuple(group))
    return out
