// Replaying a search's trace on a panel: its events drawn in the search's order, over about two
// seconds at speed 5 (the speed is read every frame, so moving the slider takes effect at once);
// paused and resumed, or stepped one expansion at a time (the events up to and including the
// next closed one), as the page's Pause and Step buttons ask. Used in both of the page's modes.

// trace: the search's events ([event, ...position], event 2 closed); show(shown) draws the first
// `shown` events; finish() is called once, when all are shown; speed() reads the slider (1-10).
export function createReplay({trace, show, finish, speed}) {
  const total = trace.length;
  let shown = 0;
  let animation = 0;
  let finished = false;

  function advance(to) {
    shown = Math.min(total, to);
    if (shown < total) return show(shown);
    cancelAnimationFrame(animation);
    animation = 0;
    if (!finished) {
      finished = true;
      finish();
    }
  }

  function frame() {
    animation = 0;
    const frames = Math.max(10, 240 / speed());
    advance(shown + Math.max(1, Math.ceil(total / frames)));
    if (!finished) animation = requestAnimationFrame(frame);
  }

  return {
    get shown() { return shown; },
    get finished() { return finished; },
    play() { if (!animation && !finished) animation = requestAnimationFrame(frame); },
    pause() {
      cancelAnimationFrame(animation);
      animation = 0;
    },
    step() {
      let next = shown;
      while (next < total && trace[next][0] !== 2) ++next;
      advance(next + 1);
    },
    /** Show everything at once. */
    skip() { advance(total); },
  };
}

// The Pause / Resume and Step buttons over the panels' replays: `replays()` lists the replays
// under way. Paused, a new search's replay waits at its first event; Step shows one more
// expansion of each.
export function wireReplayControls({pauseButton, stepButton, replays}) {
  const controls = {paused: false};
  const label = () => { pauseButton.textContent = controls.paused ? 'Resume' : 'Pause'; };
  pauseButton.addEventListener('click', () => {
    controls.paused = !controls.paused;
    for (const replay of replays()) if (controls.paused) replay.pause(); else replay.play();
    label();
  });
  stepButton.addEventListener('click', () => {
    controls.paused = true;
    label();
    for (const replay of replays()) {
      replay.pause();
      replay.step();
    }
  });
  label();
  return controls;
}
