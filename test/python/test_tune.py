"""python/tools/tile_tune.py: the candidates compiled without a GPU, the
database entry it records read back by tile-compile, and (on a GPU) a whole
tuning run."""

import json
import os
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT
import tile  # noqa: E402  (conftest put the package on the path)

TOOL = os.path.join(ROOT, "python", "tools", "tile_tune.py")
sys.path.insert(0, os.path.dirname(TOOL))
import tile_tune  # noqa: E402

MATMUL = """func.func @proj(%a: tensor<16x4096xbf16>, %b: tensor<4096x1024xbf16>) -> tensor<16x1024xbf16> {
  %c = tile.matmul %a, %b : (tensor<16x4096xbf16>, tensor<4096x1024xbf16>) -> tensor<16x1024xf32>
  %o = tile.cast %c : tensor<16x1024xf32> -> tensor<16x1024xbf16>
  return %o : tensor<16x1024xbf16>
}
"""

needs_tools = pytest.mark.skipif(
    not os.path.exists(os.path.join(BUILD, "bin", "tile-compile")),
    reason="tile-compile is not built")


def tune_env():
    return dict(os.environ, TILE_BUILD_DIR=BUILD)


@pytest.fixture
def compiled(tmp_path):
    src = tmp_path / "proj.mlir"
    src.write_text(MATMUL)
    out = tmp_path / "tune"
    subprocess.run([sys.executable, TOOL, "compile", str(src), str(out),
                    "--chip", "sm_90a", "--top", "3"], check=True,
                   env=tune_env(), capture_output=True, text=True)
    return src, out


@needs_tools
def test_compile_candidates(compiled):
    _, out = compiled
    plan = json.loads((out / "candidates.json").read_text())
    assert plan["key"] == dict(op="tile.matmul", chip="sm_90a", sms=132, m=16,
                               n=1024, k=4096, lhs="bf16", rhs="bf16",
                               result="f32")
    assert [c["index"] for c in plan["candidates"]] == [0, 1, 2]
    configs = [c["config"] for c in plan["candidates"]]
    assert len(set(configs)) == 3 and all(c.startswith("#tile.config<") for c in configs)
    for c in plan["candidates"]:
        assert "compile_error" not in c
        assert (out / c["bundle"]).read_bytes().startswith(b"TILEBUNDLE")


@needs_tools
def test_recorded_entry_is_compiled(compiled, tmp_path):
    """What `run` records (here: candidate 2 as the winner) is what a second
    compilation with the database builds, without tuning again."""
    src, out = compiled
    plan = json.loads((out / "candidates.json").read_text())
    best = dict(plan["candidates"][2], time_us=10.0, spread_us=0.5)
    db = tmp_path / "tuning.jsonl"
    db.write_text("# kept\n")
    tile_tune.record(str(db), plan["key"], best, 3)
    tile_tune.record(str(db), plan["key"], best, 3)  # replaces, not appends
    lines = db.read_text().splitlines()
    assert lines[0] == "# kept" and len(lines) == 2
    assert json.loads(lines[1])["config"] == best["config"]
    tiled = subprocess.run(
        [os.path.join(BUILD, "bin", "tile-compile"), str(src), "--chip=sm_90a",
         "--emit=tile", f"--tuning-db={db}"], check=True, capture_output=True,
        text=True).stdout
    assert f"tile.config = {best['config']}" in tiled


@pytest.mark.gpu
@needs_tools
def test_tune_on_gpu(compiled, tmp_path):
    """On a GPU: every candidate checked and timed, the fastest recorded."""
    _, out = compiled
    runner = os.path.join(BUILD, "bin", "tile-run")
    if not os.path.exists(runner):
        pytest.skip("tile-run is not built")
    db = tmp_path / "tuning.jsonl"
    subprocess.run([sys.executable, TOOL, "run", str(out), "--db", str(db),
                    "--repeats", "20"], check=True, env=tune_env())
    results = json.loads((out / "results.json").read_text())["results"]
    assert all(r["status"] == "PASS" for r in results)
    entry = json.loads(db.read_text().splitlines()[-1])
    assert entry["time_us"] == min(r["time_us"] for r in results)


@needs_tools
def test_evaluate_heuristic_offline(compiled, tmp_path):
    """`evaluate` finds the heuristic's pick (candidate 0, or what options
    make it) among a run's timed candidates and compares it with the best,
    without a GPU: here candidate 2 is made the fastest."""
    src, out = compiled
    plan = json.loads((out / "candidates.json").read_text())
    times = [12.0, 11.0, 9.0]
    run = {"key": plan["key"], "results": [
        dict(c, status="PASS", rel_err="1e-3", time_us=t, spread_us=0.1)
        for c, t in zip(plan["candidates"], times)]}
    (out / "results.json").write_text(json.dumps(run))
    peers = tmp_path / "peers.jsonl"
    peers.write_text(json.dumps({"peer": "cublas", "shape": "16x1024x4096",
                                 "time_us": 10.8}) + "\n")
    proc = subprocess.run(
        [sys.executable, TOOL, "evaluate", str(out), "--peers", str(peers),
         "--configure-options", "", "--configure-options",
         "most-rows-split-k-in-kernel=1"],
        check=True, env=tune_env(), capture_output=True, text=True)
    rows = [l for l in proc.stdout.splitlines() if l.startswith("| 16x1024x4096")]
    assert len(rows) == 1, proc.stdout
    best = tile_tune.short_config(plan["candidates"][2]["config"])
    pick = tile_tune.short_config(plan["candidates"][0]["config"])
    assert f"| {best}: 9.00 us |" in rows[0]
    assert f"{pick}: 12.00 us (0.750 of best)" in rows[0]
    assert "table: geomean 0.750 of the tuned best over 1 shapes; against " \
           "the peer 0.900, lowest 0.900" in proc.stdout
    # The table adds the split's partials in the kernel at M = 16 (the
    # first candidate); with the option at 1 row, 16 rows are above the
    # in-kernel sums and the pick is the same block summed in a cluster of
    # its programs: the table's third candidate, here the fastest.
    assert plan["candidates"][0]["config"].endswith("split_k_in_kernel = true, uniform_warp = true>")
    assert plan["candidates"][2]["config"].endswith("cluster = [1, 1, 4], uniform_warp = true>")
    assert best.endswith(" in cluster")
    assert best + ": 9.00 us (1.000 of best)" in rows[0]
    assert "most-rows-split-k-in-kernel=1: geomean 1.000 of the tuned best" \
        in proc.stdout
    # The same run kept as a line of a JSON-lines file (bench/tuning-runs/),
    # without its folder: the source is rebuilt from the key.
    kept = tmp_path / "runs.jsonl"
    kept.write_text("# a comment\n" + json.dumps(run) + "\n")
    again = subprocess.run([sys.executable, TOOL, "evaluate", str(kept)],
                           check=True, env=tune_env(), capture_output=True,
                           text=True).stdout
    assert f"{pick}: 12.00 us (0.750 of best)" in again


FAKE_RUNNER = os.path.join(ROOT, "test", "python", "fake_tile_run.py")


def proj(a, b):
    return (a @ b).to(tile.bf16)


PROJ_SIG = [("bf16", (16, 4096)), ("bf16", (4096, 1024))]


@pytest.mark.compiler
@needs_tools
def test_python_tune_records_and_compiles(tmp_path, monkeypatch):
    """tile.tune: the traced matmul's candidates compiled and run (by a
    stand-in for tile-run that makes candidate 2 the fastest: the plumbing,
    not the GPU's timing), the fastest recorded; a second tune of the same
    key tunes nothing; @tile.jit(tuning_db=) then compiles that config."""
    monkeypatch.setenv("TILE_BUILD_DIR", BUILD)
    db = tmp_path / "tuning.jsonl"
    first, = tile.tune(proj, [PROJ_SIG], db=str(db), target="sm_90a",
                       tile_run=FAKE_RUNNER, top=3, repeats=1,
                       workdir=str(tmp_path / "w1"))
    assert first["tuned"] and first["key"]["m"] == 16
    assert [r["status"] for r in first["results"]] == ["PASS"] * 3
    chosen = json.loads(db.read_text().splitlines()[-1])
    assert chosen["candidate"] == 2 and chosen["time_us"] == 9.0
    # Not the heuristic's pick, so the compile below shows the database.
    assert chosen["config"] != first["results"][0]["config"]
    assert chosen["config"] == first["results"][2]["config"]
    again, = tile.tune(proj, [PROJ_SIG], db=str(db), target="sm_90a",
                       tile_run=FAKE_RUNNER, workdir=str(tmp_path / "w2"))
    assert not again["tuned"] and not os.path.exists(tmp_path / "w2" / "results.json")
    ck = tile.jit(tuning_db=str(db))(proj).compile(PROJ_SIG, target="sm_90a")
    assert f"tile.config = {chosen['config']}" in ck.stages["tile"]


@pytest.mark.compiler
@needs_tools
def test_jit_autotune_tunes_once(tmp_path, monkeypatch):
    """@tile.jit(autotune=True): the first compile of a signature tunes its
    matmul into the database (the stand-in runner again: candidate 2 wins),
    and the kernel has that config; a new process would find the entry and
    tune nothing (here: a second function object)."""
    monkeypatch.setenv("TILE_BUILD_DIR", BUILD)
    monkeypatch.setenv("TILE_RUN", FAKE_RUNNER)
    db = tmp_path / "tuning.jsonl"
    f = tile.jit(autotune=True, tuning_db=str(db))(proj)
    ck = f.compile(PROJ_SIG, target="sm_90a")
    entries = db.read_text().splitlines()
    assert len(entries) == 1
    chosen = json.loads(entries[0])
    assert chosen["candidate"] == 2
    assert f"tile.config = {chosen['config']}" in ck.stages["tile"]
    g = tile.jit(autotune=True, tuning_db=str(db))(proj)
    g.compile(PROJ_SIG, target="sm_90a")
    assert db.read_text().splitlines() == entries


@pytest.mark.compiler
def test_tune_needs_a_database(monkeypatch):
    monkeypatch.delenv("TILE_TUNING_DB", raising=False)
    with pytest.raises(tile.CompilationError, match="needs a tuning database"):
        tile.tune(proj, [PROJ_SIG])
