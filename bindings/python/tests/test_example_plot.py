"""The plotting example in docs/python.md runs: the path is found and, when matplotlib is
installed, the picture is written (without matplotlib only the picture is skipped)."""

import importlib.util
import pathlib


def test_plot_example(data_file, tmp_path):
    example = pathlib.Path(__file__).parents[1] / "examples" / "plot_path.py"
    spec = importlib.util.spec_from_file_location("plot_path", example)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result, picture = module.plot_path(str(data_file("movingai/dao/arena2.map")), tmp_path / "path.png")
    assert result.found and result.path[0] == (275, 206) and result.path[-1] == (4, 98)
    assert abs(result.cost - 371.752) < 1e-3  # the scenario's optimal length for this query
    if importlib.util.find_spec("matplotlib") is not None:
        assert picture is not None and pathlib.Path(picture).stat().st_size > 1000
    else:
        assert picture is None
