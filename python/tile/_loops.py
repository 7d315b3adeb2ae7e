"""``for k in tk.range(...)`` loops of a kernel, rewritten for tracing.

A kernel is traced by running its Python body once. A Python ``for`` loop
over ``tk.range`` would run its body once too, but the body must become the
body of an ``scf.for`` whose loop-carried values (``acc = tk.dot(a, b,
acc)``) are the variables it reassigns. So before the first trace, the
kernel's source is parsed and each such loop::

    for k in tk.range(0, K, 32):
        BODY                                  # assigns acc (and tmp)

is rewritten (line numbers and columns kept, so errors and IR locations
point at the user's lines) into::

    def __tile_loop_body_1(k, acc, tmp):
        BODY
        return (acc, tmp)
    (acc, tmp) = __tile_for__(tk.range(0, K, 32), __tile_loop_body_1,
                              (locals().get('acc', __tile_undef__), ...),
                              ('acc', 'tmp'), line, column)

``__tile_for__`` (tile.kernel._for_loop) traces the body once inside a new
region and decides, per variable, what it is: a tile or index reassigned in
the body is loop-carried (an ``iter_args`` of the ``scf.for``), one left
alone is loop-invariant, a value first assigned in the body is local to it
(using it after the loop is an error), and a Python number changed in the
body is an error (the body runs once at trace time). ``continue`` becomes
a return of the current values; ``break``, ``return``, ``else:``, ``global``
/ ``nonlocal`` and ``del`` in the body are rejected with the line.

Only loops whose iterable is a call that resolves (through the function's
globals and closure) to ``tile.kernel.range`` are rewritten. Without the
source (a function typed at the interpreter prompt) nothing is rewritten,
and iterating a ``tk.range`` raises an error that points to ``tk.fori``.
"""

from __future__ import annotations

import ast
import builtins
import inspect
from typing import Callable, List, Optional

from .errors import SourceLocation, TraceError

_PREFIX = "__tile_"


def _error(message: str, filename: str, node: ast.AST) -> TraceError:
    return TraceError(message, location=SourceLocation(
        filename, getattr(node, "lineno", 0), getattr(node, "col_offset", 0) + 1))


def _resolve(expr: ast.AST, fn: Callable):
    """The object a Name / Attribute chain names in `fn`'s scope, or a
    sentinel when it cannot be resolved without running the function."""
    missing = _resolve
    if isinstance(expr, ast.Name):
        code = fn.__code__
        if expr.id in code.co_varnames:  # a local of the kernel: unknown now
            return missing
        if expr.id in code.co_freevars and fn.__closure__:
            cell = fn.__closure__[code.co_freevars.index(expr.id)]
            try:
                return cell.cell_contents
            except ValueError:
                return missing
        if expr.id in fn.__globals__:
            return fn.__globals__[expr.id]
        return getattr(builtins, expr.id, missing)
    if isinstance(expr, ast.Attribute):
        base = _resolve(expr.value, fn)
        if base is missing:
            return missing
        return getattr(base, expr.attr, missing)
    return missing


class _Names(ast.NodeVisitor):
    """Names a loop body binds (outside nested scopes), and the statements
    it may not hold."""

    def __init__(self, filename: str):
        self.filename = filename
        self.names: List[str] = []
        self._loop_depth = 0

    def add(self, name: str) -> None:
        if not name.startswith(_PREFIX) and name not in self.names:
            self.names.append(name)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Store):
            self.add(node.id)
        elif isinstance(node.ctx, ast.Del):
            raise _error(f"`del {node.id}` is not supported in a tk.range loop",
                         self.filename, node)

    def _scope(self, node) -> None:  # nested scope: only its name is bound
        name = getattr(node, "name", None)
        if name:
            self.add(name)
        for d in getattr(node, "decorator_list", []):
            self.visit(d)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scope

    def visit_Lambda(self, node) -> None:
        pass

    def visit_ListComp(self, node) -> None:
        pass

    visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_ListComp

    def visit_Import(self, node) -> None:
        for alias in node.names:
            self.add((alias.asname or alias.name).split(".")[0])

    visit_ImportFrom = visit_Import

    def visit_ExceptHandler(self, node) -> None:
        if node.name:
            self.add(node.name)
        self.generic_visit(node)

    def _loop(self, node) -> None:
        self._loop_depth += 1
        self.generic_visit(node)
        self._loop_depth -= 1

    visit_For = visit_While = visit_AsyncFor = _loop

    def visit_Break(self, node) -> None:
        if self._loop_depth == 0:
            raise _error("`break` is not supported in a tk.range loop (the "
                         "loop always runs its full range)", self.filename, node)

    def visit_Return(self, node) -> None:
        raise _error("`return` is not supported in a tk.range loop",
                     self.filename, node)

    def visit_Global(self, node) -> None:
        raise _error("`global` / `nonlocal` are not supported in a tk.range loop",
                     self.filename, node)

    visit_Nonlocal = visit_Global

    def visit_Yield(self, node) -> None:
        raise _error("`yield` is not supported in a kernel", self.filename, node)

    visit_YieldFrom = visit_Await = visit_Yield


class _Continue(ast.NodeTransformer):
    """`continue` of the loop being rewritten -> return the current values."""

    def __init__(self, make_return: Callable[[], ast.stmt]):
        self.make_return = make_return

    def visit_Continue(self, node):
        return ast.copy_location(self.make_return(), node)

    def _skip(self, node):
        return node  # continue inside these belongs to them

    visit_For = visit_While = visit_AsyncFor = _skip
    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _skip
    visit_Lambda = _skip


class _Rewriter(ast.NodeTransformer):
    def __init__(self, fn: Callable, range_fn, filename: str):
        self.fn = fn
        self.range_fn = range_fn
        self.filename = filename
        self.count = 0

    def is_range(self, node: ast.AST) -> bool:
        return (isinstance(node, ast.Call)
                and _resolve(node.func, self.fn) is self.range_fn)

    def visit_For(self, node: ast.For):
        self.generic_visit(node)  # inner loops first
        if not self.is_range(node.iter):
            return node
        if node.orelse:
            raise _error("`for ... else` is not supported with tk.range",
                         self.filename, node.orelse[0])
        if not isinstance(node.target, ast.Name):
            raise _error("a tk.range loop takes one index variable "
                         "(`for k in tk.range(...)`)", self.filename, node.target)
        collect = _Names(self.filename)
        for stmt in node.body:
            collect.visit(stmt)
        names = [n for n in collect.names if n != node.target.id]
        self.count += 1
        body_name = f"{_PREFIX}loop_body_{self.count}"

        def values_tuple(ctx):
            return ast.Tuple(elts=[ast.Name(id=n, ctx=ctx()) for n in names],
                             ctx=ctx())

        def make_return():
            return ast.Return(value=values_tuple(ast.Load))

        body = [_Continue(make_return).visit(stmt) for stmt in node.body]
        body.append(ast.copy_location(make_return(), node))
        args = ast.arguments(
            posonlyargs=[],
            args=[ast.arg(arg=node.target.id)] + [ast.arg(arg=n) for n in names],
            vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        fdef = ast.FunctionDef(name=body_name, args=args, body=body,
                               decorator_list=[], returns=None, type_comment=None)
        if hasattr(ast, "TypeAlias"):  # 3.12+: type parameters
            fdef.type_params = []
        initial = ast.Tuple(elts=[
            ast.Call(func=ast.Attribute(
                value=ast.Call(func=ast.Name(id="locals", ctx=ast.Load()),
                               args=[], keywords=[]),
                attr="get", ctx=ast.Load()),
                args=[ast.Constant(value=n),
                      ast.Name(id=f"{_PREFIX}undef__", ctx=ast.Load())],
                keywords=[])
            for n in names], ctx=ast.Load())
        call = ast.Call(
            func=ast.Name(id=f"{_PREFIX}for__", ctx=ast.Load()),
            args=[node.iter, ast.Name(id=body_name, ctx=ast.Load()), initial,
                  ast.Constant(value=tuple(names)),
                  ast.Constant(value=node.lineno),
                  ast.Constant(value=node.col_offset + 1)],
            keywords=[])
        if names:
            stmt = ast.Assign(targets=[values_tuple(ast.Store)], value=call)
        else:
            stmt = ast.Expr(value=call)
        for new in (fdef, stmt):
            ast.copy_location(new, node)
            ast.fix_missing_locations(new)
        return [fdef, stmt]


def _source_tree(fn: Callable) -> Optional[ast.FunctionDef]:
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None
    source = "".join(lines)
    indented = bool(lines) and lines[0][:1] in (" ", "\t")
    try:
        if indented:  # keep columns: parse inside a dummy block
            tree = ast.parse("if 1:\n" + source)
            ast.increment_lineno(tree, first - 2)
            node = tree.body[0].body[0]
        else:
            tree = ast.parse(source)
            ast.increment_lineno(tree, first - 1)
            node = tree.body[0]
    except SyntaxError:
        return None
    if not isinstance(node, ast.FunctionDef) or node.name != fn.__name__:
        return None
    return node


def rewrite(fn: Callable, range_fn, for_fn, undef) -> Callable:
    """`fn` with its tk.range loops rewritten (see the module docstring), or
    `fn` itself when it has none or its source is not available."""
    node = _source_tree(fn)
    if node is None:
        return fn
    filename = fn.__code__.co_filename
    rewriter = _Rewriter(fn, range_fn, filename)
    node.body = [rewriter.visit(stmt) for stmt in node.body]
    node.body = [s for stmt in node.body
                 for s in (stmt if isinstance(stmt, list) else [stmt])]
    if rewriter.count == 0:
        return fn
    # The function itself: no decorators, annotations or defaults (the
    # caller binds every argument from the original signature).
    node.decorator_list = []
    node.returns = None
    node.args.defaults = []
    node.args.kw_defaults = [None] * len(node.args.kwonlyargs)
    for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
        a.annotation = None
    for a in (node.args.vararg, node.args.kwarg):
        if a is not None:
            a.annotation = None
    # A factory binds what the function sees besides its globals: the loop
    # helpers and the original closure's values.
    freevars = list(fn.__code__.co_freevars)
    params = [f"{_PREFIX}for__", f"{_PREFIX}undef__"] + freevars
    factory = ast.FunctionDef(
        name=f"{_PREFIX}factory__",
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params],
                           vararg=None, kwonlyargs=[], kw_defaults=[],
                           kwarg=None, defaults=[]),
        body=[node, ast.Return(value=ast.Name(id=node.name, ctx=ast.Load()))],
        decorator_list=[], returns=None, type_comment=None)
    if hasattr(ast, "TypeAlias"):
        factory.type_params = []
    ast.copy_location(factory, node)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    code = compile(module, filename, "exec", dont_inherit=True)
    namespace: dict = {}
    exec(code, fn.__globals__, namespace)  # noqa: S102 - the user's own code
    cells = []
    for cell in fn.__closure__ or ():
        try:
            cells.append(cell.cell_contents)
        except ValueError:
            cells.append(undef)
    rewritten = namespace[f"{_PREFIX}factory__"](for_fn, undef, *cells)
    rewritten.__tile_loops__ = rewriter.count
    return rewritten

