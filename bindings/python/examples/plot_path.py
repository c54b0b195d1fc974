"""Finds a path on a MovingAI map and plots it over the map with matplotlib, when matplotlib is
installed (without it the path is still found and printed, only the picture is skipped).

    PYTHONPATH=build/release/python python3 bindings/python/examples/plot_path.py \
        ../shared/data/movingai/dao/arena2.map path.png
"""

import sys

import numpy as np

import wayfinder as wf


def plot_path(map_path, picture_path, start=(275, 206), goal=(4, 98)):
    grid = wf.read_movingai_map(map_path)
    result = wf.GridQuery(grid).find_path(start, goal, trace=True)
    print(f"{result.status.name}: cost {result.cost:.3f}, {len(result.path)} cells, {result.stats.expanded} expanded")
    try:
        import matplotlib
        matplotlib.use("Agg")  # no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no picture")
        return result, None
    walls = np.isinf(grid.to_costs())
    figure, axes = plt.subplots(figsize=(6, 6))
    axes.imshow(walls, cmap="gray_r", interpolation="nearest")
    closed = result.trace[result.trace[:, 0] == 2]
    axes.scatter(closed[:, 1], closed[:, 2], s=1, c="orange", label="expanded")
    path = result.path_array
    axes.plot(path[:, 0], path[:, 1], c="tab:blue", linewidth=2, label=f"A*, cost {result.cost:.1f}")
    axes.legend(loc="lower right")
    figure.savefig(picture_path, dpi=100)
    plt.close(figure)
    return result, picture_path


if __name__ == "__main__":
    plot_path(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "path.png")
