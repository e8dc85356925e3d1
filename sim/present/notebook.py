"""What the notebooks share: a measured run-time estimate, a Jupyter progress bar, Answer sentences.

* :func:`estimate` plays a small slice of an experiment (after a tiny warm-up that loads
  or compiles the kernels), measures plays per second and prints the estimated time of
  the full run: ``deals x plays per deal / measured plays/s``;
* :func:`chunk_bar` is a ``tqdm.auto`` bar (a widget in Jupyter, text elsewhere) fed by
  the runner's ``on_chunk`` callback, so long cells show their progress;
* :func:`answer` renders the Answer section's sentences (built from computed numbers)
  as Markdown in the notebook, and returns the text so tests can read it.
"""

from __future__ import annotations

import time

from sim.experiment import Experiment
from sim.runner.run import run_experiment


def estimate(exp: Experiment, calib: int = 400, threads: int | None = None) -> float:
    """Measured plays/s of ``exp`` on ``calib`` deals, printed with the estimated time of all its deals."""
    dpg = exp.rules.deals_per_game
    calib = max(dpg, min(calib, exp.deals // 10) // dpg * dpg)  # at most a tenth of the run itself
    run_experiment(exp.with_deals(dpg), threads=threads, progress=False)  # loads (or compiles) the kernels
    t0 = time.perf_counter()
    run_experiment(exp.with_deals(calib), threads=threads, progress=False)
    seconds = time.perf_counter() - t0
    rate = calib * exp.plays_per_deal / max(seconds, 1e-9)
    total = exp.deals * exp.plays_per_deal
    print(f"estimate: {exp.deals:,} deals x {exp.plays_per_deal} plays per deal "
          f"({len(exp.pairings)} pairing(s) x their rotations) = {total:,} plays at the measured "
          f"{rate:,.0f} plays/s -> about {_duration(total / rate)}")
    return rate


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def chunk_bar(total: int, desc: str):
    """(bar, on_chunk): a tqdm.auto bar over ``total`` deals and the callback that advances it."""
    from tqdm.auto import tqdm

    bar = tqdm(total=total, desc=desc, unit="deal", unit_scale=True)

    def on_chunk(info) -> None:
        bar.update(info.stop - info.start)
        if info.chunks_done == info.chunks_total:
            bar.close()

    return bar, on_chunk


def answer(sentences: list[str]) -> str:
    """Show the Answer sentences as Markdown (in Jupyter) and return them as one text."""
    text = "\n\n".join(sentences)
    try:
        from IPython import get_ipython
        from IPython.display import Markdown, display

        if get_ipython() is not None:
            display(Markdown(text))
            return text
    except ImportError:
        pass
    print(text)
    return text


__all__ = ["estimate", "chunk_bar", "answer"]
