// The crowd panel: on a navigation mesh or a grid, clicks add agents or send them to a point,
// and the crowd is animated (start, pause, one step, speed). Agents are drawn as circles of their
// radius, with a line along their velocity, coloured by their state (in the 3D view, discs on
// the surface). With the server the crowd lives there (/api/worlds/{id}/crowd, docs/viewer.md),
// on meshes and grids; in the static site it runs in the page on the WebAssembly build's Crowd
// (mesh.createCrowd, grid.createCrowd), on meshes and grids alike. On a grid a crowd's points are
// (column, 0, row) in cell units, where the click fell inside its cell. The crowd's last state is
// kept in viewerState.crowd for the browser tests.

const tickSeconds = 0.05;      // dt of one tick
const frameMilliseconds = 100; // one request of `speed` ticks a frame: speed 2 is real time

const statusColours = {
  idle: '#7b3294', waiting_for_path: '#c2a5cf', moving: '#008837', arrived: '#2166ac', unreachable: '#d7191c', on_link: '#e66101',
};

// The server's crowd on world `id`: every call answers the crowd's state.
function serverCrowd(viewer, id) {
  const path = `/api/worlds/${id}/crowd`;
  return {
    create: () => viewer.api('POST', path, {}),
    addAgents: (agents) => viewer.api('POST', `${path}/agents`, {agents}),
    setTarget: (target) => viewer.api('POST', `${path}/target`, {target}),
    step: (ticks) => viewer.api('POST', `${path}/step`, {ticks, dt: tickSeconds}),
  };
}

// A crowd in the page on the WebAssembly build's mesh or grid (`world`, the library's object,
// whose createCrowd makes one: A* on grids, as the server's), answering as the server does.
function pageCrowd(world) {
  let crowd = null;
  let time = 0;
  const radii = new Map();
  const targets = new Map();
  const stateOf = () => {
    const read = crowd.agents();
    const agents = [...read.ids].map((id, i) => ({
      id, position: [...read.positions.slice(3 * i, 3 * i + 3)], velocity: [...read.velocities.slice(2 * i, 2 * i + 2)],
      radius: radii.get(id), status: read.states[i], target: targets.get(id) ?? null,
    }));
    return {time, agents};
  };
  return {
    async create() {
      crowd?.dispose();
      crowd = world.createCrowd();
      time = 0;
      radii.clear();
      targets.clear();
      return stateOf();
    },
    async addAgents(agents) {
      for (const agent of agents) {
        const id = crowd.addAgent(agent.position, {radius: agent.radius});
        radii.set(id, agent.radius);
      }
      return stateOf();
    },
    async setTarget(target) {
      for (const id of crowd.agents().ids) {
        crowd.setTarget(id, target);
        targets.set(id, target);
      }
      return stateOf();
    },
    dispose() { crowd?.dispose(); crowd = null; },
    async step(ticks) {
      for (let i = 0; i < ticks; ++i) crowd.update(tickSeconds);
      time += ticks * tickSeconds;
      return stateOf();
    },
  };
}

export function installCrowdPanel(viewer) {
  const {state} = viewer;
  const template = document.createElement('template');
  template.innerHTML = `
    <fieldset id="crowd-panel">
      <legend>Crowd</legend>
      <p id="crowd-note" class="note"></p>
      <div id="crowd-tools">
        <label>Click <select id="crowd-tool">
          <option value="none">picks points</option>
          <option value="add">adds an agent</option>
          <option value="target">sends the agents there</option>
        </select></label>
        <label>Agent radius <input id="crowd-radius" type="number" min="0.1" max="5" step="0.1" value="0.5"></label>
        <button id="crowd-start" type="button">Start</button>
        <button id="crowd-step" type="button">Step</button>
        <button id="crowd-clear" type="button">New crowd</button>
        <label>Speed <input id="crowd-speed" type="range" min="1" max="10" value="2"></label>
        <output id="crowd-time"></output>
      </div>
    </fieldset>`.trim();
  document.getElementById('controls').append(template.content.firstChild);
  const $ = (id) => document.getElementById(id);
  const crowd = {backend: null, world: null, state: null, running: false, timer: 0, steps: 0};
  state.crowd = crowd;

  const offered = () => crowd.backend !== null;
  const show = () => {
    $('crowd-tools').hidden = !offered();
    const kind = state.world?.kind;
    $('crowd-note').textContent = offered() ? ''
      : kind === 'navmesh' || kind === 'grid' ? 'This build has no crowd.' : 'Crowds walk navigation meshes and grids: open one.';
    $('crowd-start').textContent = crowd.running ? 'Pause' : 'Start';
    const agents = crowd.state?.agents.length ?? 0;
    $('crowd-time').textContent = offered() ? `${agents} agents, ${(crowd.state?.time ?? 0).toFixed(2)} s` : '';
  };

  const pause = () => {
    crowd.running = false;
    clearTimeout(crowd.timer);
    crowd.timer = 0;
    show();
  };

  // Runs `call` on the crowd (made first when the world has none yet) and shows its answer.
  const act = async (call) => {
    const world = state.world;
    try {
      if (!crowd.state) crowd.state = await crowd.backend.create();
      const answer = await call(crowd.backend);
      if (state.world !== world) return;
      crowd.state = answer;
      ++crowd.steps;
      show();
      viewer.drawSoon();
    } catch (error) {
      pause();
      viewer.say(error.message);
    }
  };

  const stepOnce = () => act((backend) => backend.step(Number($('crowd-speed').value)));
  const tick = async () => {
    if (!crowd.running) return;
    const began = performance.now();
    await stepOnce();
    if (crowd.running) crowd.timer = setTimeout(tick, Math.max(0, frameMilliseconds - (performance.now() - began)));
  };

  $('crowd-start').addEventListener('click', () => {
    if (crowd.running) return pause();
    crowd.running = true;
    show();
    tick();
  });
  $('crowd-step').addEventListener('click', () => { pause(); stepOnce(); });
  $('crowd-clear').addEventListener('click', () => {
    pause();
    act((backend) => backend.create());
  });
  $('crowd-tool').addEventListener('change', () => {
    if ($('crowd-tool').value !== 'none') document.dispatchEvent(new CustomEvent('viewer-tool', {detail: 'crowd'}));
  });
  document.addEventListener('viewer-tool', (event) => {
    if (event.detail !== 'crowd') $('crowd-tool').value = 'none';
  });

  state.worldListeners.push((world) => {
    pause();
    crowd.world = world;
    crowd.state = null;
    crowd.backend?.dispose?.();
    crowd.backend = null;
    if (state.mode === 'server') {
      if (world.kind === 'navmesh' || world.kind === 'grid') crowd.backend = serverCrowd(viewer, world.id);
    } else if (world.kind === 'navmesh' || world.kind === 'grid') {
      const walked = state.backend.crowdWorldOf?.(world.id);
      if (walked?.createCrowd) crowd.backend = pageCrowd(walked);
    }
    show();
  });

  state.clickTakers.push((planarPoint, point, event) => {
    const tool = $('crowd-tool').value;
    if (!offered() || tool === 'none' || event.shiftKey) return false;
    const onGrid = state.world.kind === 'grid';
    if (!point) {
      viewer.say(onGrid ? 'click on the grid' : 'click on the mesh');
      return true;
    }
    // A grid's point is its cell; the crowd stands where the click fell inside it.
    const position = onGrid ? [planarPoint[0], 0, planarPoint[1]] : point;
    if (tool === 'add') {
      const radius = Number($('crowd-radius').value) || 0.5;
      act((backend) => backend.addAgents([{position, radius}]));
    } else {
      act((backend) => backend.setTarget(position));
    }
    return true;
  });

  state.discs.push(() => (offered() && crowd.state ? crowd.state.agents : []).map((agent) => (
    {position: agent.position, radius: agent.radius, colour: statusColours[agent.status] ?? '#333'})));
  state.overlays.push((context, view) => {
    if (!offered() || !crowd.state) return;
    context.lineWidth = Math.max(1, devicePixelRatio);
    for (const agent of crowd.state.agents) {
      const [x, y] = view.toCanvas(agent.position[0], agent.position[2]);
      const colour = statusColours[agent.status] ?? '#333';
      context.beginPath();
      context.arc(x, y, Math.max(2, agent.radius * view.scale), 0, 2 * Math.PI);
      context.fillStyle = `${colour}99`;
      context.strokeStyle = colour;
      context.fill();
      context.stroke();
      context.beginPath();
      context.moveTo(x, y);
      context.lineTo(...view.toCanvas(agent.position[0] + agent.velocity[0] * 0.5, agent.position[2] + agent.velocity[1] * 0.5));
      context.stroke();
      if (agent.target) {
        const [tx, ty] = view.toCanvas(agent.target[0], agent.target[2]);
        context.strokeRect(tx - 3, ty - 3, 6, 6);
      }
    }
  });
  show();
}
