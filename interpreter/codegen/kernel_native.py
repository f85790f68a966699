"""LLVM IR -> machine code in this process, through llvmlite (LLVM inside a pip wheel: no C
compiler needed), and the object code kept between runs.

The only module that imports llvmlite, and only when a kernel is first wanted: `check`, `play`,
`repl`, `fmt` and `lsp` never come here.  Object code is specific to this machine's processor,
so its key names the processor and its features besides the IR's digest.
"""

from __future__ import annotations

import ctypes
import hashlib
import os

_STATE: dict = {}


class NoCompiler(Exception):
    """llvmlite cannot be imported (or initialised) here: everything runs on the Python path."""


def _llvm():
    """llvmlite.binding, initialised once; NoCompiler when it is missing."""
    found = _STATE.get("llvm")
    if found is None:
        try:
            import llvmlite.binding as llvm
            llvm.initialize_native_target()
            llvm.initialize_native_asmprinter()
        except Exception as err:  # ImportError, or a broken wheel: both mean no compiled backend
            raise NoCompiler(f"llvmlite cannot be used here ({type(err).__name__}: {err})") from None
        found = _STATE["llvm"] = llvm
    return found


def available() -> str | None:
    """None when kernels can be compiled here, else why not."""
    try:
        _llvm()
    except NoCompiler as err:
        return str(err)
    return None


def level() -> int:
    """How hard LLVM optimises a kernel: CARDGAME_KERNEL_OPT (0 to 3), 2 by default.  Every level
    plays the same games; 0 compiles in a tenth of the time into code a few times slower (the
    test suite compiles every script so)."""
    text = os.environ.get("CARDGAME_KERNEL_OPT", "2")
    return int(text) if text in ("0", "1", "2", "3") else 2


def _machine():
    key = ("machine", level())
    machine = _STATE.get(key)
    if machine is None:
        llvm = _llvm()
        target = llvm.Target.from_triple(llvm.get_process_triple())
        machine = _STATE[key] = target.create_target_machine(
            cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(), opt=level(), reloc="pic")
    return machine


def machine_key() -> str:
    """What object code depends on besides its IR: llvmlite's version, the processor, its features."""
    llvm = _llvm()
    import llvmlite
    return f"{llvmlite.__version__} {llvm.get_process_triple()} {llvm.get_host_cpu_name()} O{level()} " \
           f"{hashlib.sha256(llvm.get_host_cpu_features().flatten().encode()).hexdigest()[:16]}"


def compile_ir(ir: str) -> bytes:
    """The object code of an IR module, optimised at level()."""
    llvm = _llvm()
    module = llvm.parse_assembly(ir)
    module.verify()
    machine = _machine()
    if level():
        tuning = llvm.create_pipeline_tuning_options(speed_level=level())
        builder = llvm.create_pass_builder(machine, tuning)
        builder.getModulePassManager().run(module, builder)
    return machine.emit_object(module)


class Loaded:
    """Object code linked into this process; `function(name, arity)` is a ctypes callable of
    (context pointer, arity integers) -> integer.  Kept alive while its functions are used."""

    def __init__(self, obj: bytes):
        llvm = _llvm()
        self._engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), _machine())  # links the object as it is
        self._engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
        self._engine.finalize_object()
        self._functions: dict = {}

    def function(self, name: str, arity: int):
        fn = self._functions.get(name)
        if fn is None:
            address = self._engine.get_function_address(name)
            if not address:
                raise KeyError(name)
            kind = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, *([ctypes.c_int64] * arity))
            fn = self._functions[name] = kind(address)
        return fn
