"""Definitions' values kept while nothing they read changes, in the kernel mode (gen_defines.py
keeps them in State.memo for the Python modes, by the same analysis: memo_reads.py).

A definition without parameters, or a call of one with constant arguments (`active(six_wins)`),
that computes something (a walk, a call) gets an entry: its value and the work it took, valid
while its bit of S[MEMO] is set.  A use of a valid entry pays that work again (the budget runs out
where it would have); a statement that changes what an entry reads clears its bit first: a
variable it reads (MEMO_VAR_k), a zone it reads (MEMO_ZONE[slot]; every slot for one that reads
a per-player zone or where cards lie), how cards face (MEMO_FACING).  A game's start clears them all.
"""

from __future__ import annotations

from .memo_reads import computes, memo_reads

MOST = 62  # entries: one bit each of S[MEMO]


class KernelMemo:
    """Kept definitions of the kernel mode: a part of KernelGen."""

    def kept_call(self, name: str, args: tuple) -> str:
        """A function of nothing giving definition `name`'s value for the constant `args`: kept
        in an entry while it may be (see the module's docstring), else the plain call."""
        fn = self.define_fn(name)
        call = f"{fn}({', '.join(args)})"
        key = (name, args)
        entry = self._memo.get(key)
        if entry is not None:
            return entry
        define = self.t.defines[name]
        if not computes(self.t, define.body) or len(self._memo) >= MOST:  # (a recursive one is never kept)
            entry = self._memo[key] = self.tmp("call_")
            self.function(f"{entry}()", [f"return {call}"])
            return entry
        k = sum(1 for e in self._memo.values() if e.startswith("kept_"))
        entry = self._memo[key] = f"kept_{k}"
        self._kept_reads.append(memo_reads(self.t, self.p.zone_index, [name]))
        self.function(f"{entry}()", [
            f"if S[MEMO] & {1 << k}:", f"    charge(MEMO_KEPT[{2 * k + 1}])", f"    return MEMO_KEPT[{2 * k}]",
            "w = S[WORK]", f"v = {call}", f"MEMO_KEPT[{2 * k}] = v", f"MEMO_KEPT[{2 * k + 1}] = S[WORK] - w",
            f"S[MEMO] = S[MEMO] | {1 << k}", "return v"])
        return entry

    # ---- what a change forgets (module constants the statements name)
    def forget_variable(self, name: str) -> list[str]:
        return [f"S[MEMO] = S[MEMO] & ~MEMO_VAR_{name}"]

    def forget_zones(self, *slots: str, facing: bool = True, anywhere: bool = False) -> list[str]:
        masks = ["MEMO_ZONES"] if anywhere else [f"MEMO_ZONE[{slot}]" for slot in slots]
        return [f"S[MEMO] = S[MEMO] & ~({' | '.join(masks + (['MEMO_FACING'] if facing else []))})"]

    def forget_facing(self) -> list[str]:
        return ["S[MEMO] = S[MEMO] & ~MEMO_FACING"]

    def memo_constants(self, slots: int) -> tuple[dict, dict]:
        """(scalars, tables) the forgetting lines name, from every entry's reads."""
        variables = {name: 0 for name in self.t.vars} | {name: 0 for name in self.t.options}
        facing = anywhere = 0
        by_slot = [0] * max(1, slots)
        for k, reads in enumerate(self._kept_reads):
            bit = 1 << k
            for name in reads.variables:
                variables[name] = variables.get(name, 0) | bit
            if reads.facing:
                facing |= bit
            if reads.zones is None:
                anywhere |= bit
            for slot in reads.zones or ():
                by_slot[slot] |= bit
        scalars = {f"MEMO_VAR_{name}": mask for name, mask in variables.items()}
        everything = anywhere
        for mask in by_slot:
            everything |= mask
        scalars.update({"MEMO_FACING": facing, "MEMO_ZONES": everything})
        return scalars, {"MEMO_ZONE": tuple(str(mask | anywhere) for mask in by_slot)}
