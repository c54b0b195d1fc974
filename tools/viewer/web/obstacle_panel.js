// The obstacle panel: on a navigation mesh built from a level (a level OBJ opened with "Open a
// level…"), a click drops a cylinder or a box, or removes the obstacle under it. The server's
// tile cache rebuilds the tiles the obstacle touches (POST /api/worlds/{id}/obstacles,
// docs/viewer.md); they flash on the picture, the mesh is described again and the current
// query runs again. The WebAssembly build has no tile cache, so in the static site the panel
// only says so. Obstacles and the last rebuilt tiles are kept in viewerState.obstacles for the
// browser tests.

const flashMilliseconds = 1500;

function field(html) {
  const template = document.createElement('template');
  template.innerHTML = html.trim();
  return template.content.firstChild;
}

export function installObstaclePanel(viewer) {
  const {state} = viewer;
  const panel = field(`
    <fieldset id="obstacle-panel">
      <legend>Obstacles</legend>
      <label class="button">Open a level…<input id="obstacle-level-file" type="file" accept=".obj"></label>
      <p id="obstacle-note" class="note"></p>
      <div id="obstacle-tools">
        <label>Click <select id="obstacle-tool">
          <option value="none">picks points</option>
          <option value="cylinder">drops a cylinder</option>
          <option value="box">drops a box</option>
          <option value="remove">removes an obstacle</option>
        </select></label>
        <label>Size <input id="obstacle-size" type="number" min="0.2" max="50" step="0.1" value="2"></label>
        <label>Height <input id="obstacle-height" type="number" min="0.1" max="50" step="0.1" value="2"></label>
        <output id="obstacle-count"></output>
      </div>
    </fieldset>`);
  document.getElementById('controls').append(panel);
  const $ = (id) => document.getElementById(id);
  const obstacles = {list: [], flashed: [], flashedAt: 0, requests: 0};
  state.obstacles = obstacles;

  const isLevel = () => state.world?.kind === 'navmesh' && state.world.level === true;
  const show = () => {
    const server = state.mode === 'server';
    $('obstacle-level-file').parentElement.hidden = !server;
    $('obstacle-tools').hidden = !isLevel();
    $('obstacle-note').textContent = !server
      ? 'Obstacles need the server (wayfinder serve): the WebAssembly build has no tile cache.'
      : isLevel() ? '' : 'Obstacles go on a mesh built from a level: open a level OBJ here.';
    $('obstacle-count').textContent = isLevel() ? `${obstacles.list.length} obstacles` : '';
  };
  // A choice of tool here sets the crowd panel's back to picking points, and the other way round.
  $('obstacle-tool').addEventListener('change', () => {
    if ($('obstacle-tool').value !== 'none') document.dispatchEvent(new CustomEvent('viewer-tool', {detail: 'obstacles'}));
  });
  document.addEventListener('viewer-tool', (event) => {
    if (event.detail !== 'obstacles') $('obstacle-tool').value = 'none';
  });

  $('obstacle-level-file').addEventListener('change', async (event) => {
    const file = event.target.files[0];
    event.target.value = '';
    if (!file) return;
    try {
      viewer.say(`building a navigation mesh from ${file.name}…`);
      const world = await viewer.api('POST', '/api/worlds', {kind: 'navmesh', name: file.name.replace(/\.[^.]*$/, ''),
                                                             obj: await file.text(), level: {}});
      await viewer.refreshWorlds(world.id);
    } catch (error) {
      viewer.say(error.message);
    }
  });

  state.worldListeners.push((world) => {
    obstacles.list = world.obstacles ?? [];
    obstacles.flashed = [];
    show();
  });

  // The obstacle whose footprint holds (x, z), the last dropped first.
  const obstacleAt = (x, z) => [...obstacles.list].reverse().find((o) => o.shape === 'cylinder'
    ? Math.hypot(x - o.base[0], z - o.base[2]) <= o.radius
    : x >= o.min[0] && x <= o.max[0] && z >= o.min[2] && z <= o.max[2]);

  const change = async (path, body) => {
    const world = state.world;
    ++obstacles.requests;
    try {
      const answer = await viewer.api('POST', `/api/worlds/${world.id}/${path}`, body);
      if (state.world !== world) return;
      obstacles.list = answer.obstacles;
      obstacles.flashed = answer.tiles;
      obstacles.flashedAt = performance.now();
      viewer.say(`${answer.tiles.length} tiles rebuilt`);
      show();
      await viewer.reloadWorld();
      flash();
    } catch (error) {
      viewer.say(error.message);
    } finally {
      --obstacles.requests;
    }
  };

  state.clickTakers.push(([x, z], point, event) => {
    const tool = $('obstacle-tool').value;
    if (!isLevel() || tool === 'none' || event.shiftKey) return false;
    if (tool === 'remove') {
      const hit = obstacleAt(x, z);
      if (hit) change('obstacles/remove', {obstacle: hit.id});
      else viewer.say('no obstacle there');
      return true;
    }
    const size = Number($('obstacle-size').value) || 2;
    const height = Number($('obstacle-height').value) || 2;
    // On the mesh point clicked, or at the level's lowest height where the mesh has a hole.
    const y = point ? point[1] : state.world.bounds.min[1];
    const foot = y - 0.5;  // a little below the floor, so that the floor's spans are inside
    if (tool === 'cylinder') {
      change('obstacles', {shape: 'cylinder', base: [x, foot, z], radius: size / 2, height: height + 0.5});
    } else {
      change('obstacles', {shape: 'box', min: [x - size / 2, foot, z - size / 2], max: [x + size / 2, y + height, z + size / 2]});
    }
    return true;
  });

  // The rebuilt tiles fade out over a second and a half.
  const flash = () => {
    if (performance.now() - obstacles.flashedAt > flashMilliseconds) { viewer.drawAll(); return; }
    viewer.drawAll();
    requestAnimationFrame(flash);
  };

  state.solids.push(() => (isLevel() ? obstacles.list : []));
  state.overlays.push((context, view) => {
    if (!isLevel()) return;
    const fade = 1 - (performance.now() - obstacles.flashedAt) / flashMilliseconds;
    if (fade > 0) {
      context.fillStyle = `rgba(255, 140, 0, ${0.45 * fade})`;
      context.strokeStyle = `rgba(200, 90, 0, ${fade})`;
      context.lineWidth = devicePixelRatio;
      for (const tile of obstacles.flashed) {
        for (const polygon of tile.polygons) {
          context.beginPath();
          polygon.forEach((p, i) => (i === 0 ? context.moveTo : context.lineTo).call(context, ...view.toCanvas(p[0], p[2])));
          context.closePath();
          context.fill();
          context.stroke();
        }
      }
    }
    context.fillStyle = 'rgba(60, 60, 60, 0.8)';
    for (const o of obstacles.list) {
      context.beginPath();
      if (o.shape === 'cylinder') {
        const [cx, cy] = view.toCanvas(o.base[0], o.base[2]);
        context.arc(cx, cy, o.radius * view.scale, 0, 2 * Math.PI);
      } else {
        const [x0, y0] = view.toCanvas(o.min[0], o.min[2]);
        const [x1, y1] = view.toCanvas(o.max[0], o.max[2]);
        context.rect(x0, y0, x1 - x0, y1 - y0);
      }
      context.fill();
    }
  });
  show();
}
