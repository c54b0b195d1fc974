// The 3D view of a navigation mesh or a voxel world, with three.js (the static site bundles it,
// tools/viewer/static; `wayfinder serve` embeds it when built with it): the mesh's polygons
// shaded by region at their heights (and a level's triangles faintly under them when one was
// opened, with its obstacles), or the world's visible block faces merged into rectangles
// (voxel_geometry.js); the path as a 3D line, the corridor's polygons, start and goal, the
// crowd's agents as discs, and the search's trace as points, replayed as in the 2D view. The left button
// turns the camera about its target, the right one (or shift + left) pans, the wheel zooms; a
// click without a drag picks a point on the surface: on a mesh the point hit, in a voxel world
// the place beside the face hit (on a top face: standing on that block).
import * as THREE from 'three';
import {OrbitControls} from 'three/addons/controls/OrbitControls.js';
import {voxelObjects} from './voxel_geometry.js';
import {fanTriangles} from './world_files.js';

const colours = {background: 0xdddddd, path: 0x2166ac, start: 0x1a9850, goal: 0xd73027, corridor: 0x78b4e6,
                 edges: 0x000000, level: 0x6b6b6b, obstacle: 0x3b3b3b, opened: 0xfee08b, closed: 0xfdae61};

// Region hues spread by the golden angle, as the 2D view's regionColour.
function regionColour(region) {
  return new THREE.Color().setHSL(((region * 137.508) % 360) / 360, 0.45, 0.72);
}

// Triangle fans of the polygons: positions and colours, and which polygon each triangle is of.
function meshGeometry(world, polygonIds, colourOf) {
  const positions = [];
  const colourValues = [];
  for (const p of polygonIds) {
    const polygon = world.polygons[p];
    const colour = colourOf(p);
    for (let i = 1; i + 1 < polygon.length; ++i)
      for (const v of [polygon[0], polygon[i], polygon[i + 1]]) {
        positions.push(...world.vertices[v]);
        colourValues.push(colour.r, colour.g, colour.b);
      }
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
  geometry.setAttribute('color', new THREE.Float32BufferAttribute(colourValues, 3));
  return geometry;
}

function navMeshObjects(world) {
  const group = new THREE.Group();
  const all = world.polygons.map((_, p) => p);
  const surface = new THREE.Mesh(meshGeometry(world, all, (p) => regionColour(world.regions[p])),
                                 new THREE.MeshBasicMaterial({vertexColors: true, side: THREE.DoubleSide,
                                                              polygonOffset: true, polygonOffsetFactor: 1,
                                                              polygonOffsetUnits: 1}));
  group.add(surface);
  const edges = [];
  for (const polygon of world.polygons)
    polygon.forEach((v, i) => edges.push(...world.vertices[v], ...world.vertices[polygon[(i + 1) % polygon.length]]));
  const edgeGeometry = new THREE.BufferGeometry();
  edgeGeometry.setAttribute('position', new THREE.Float32BufferAttribute(edges, 3));
  group.add(new THREE.LineSegments(edgeGeometry, new THREE.LineBasicMaterial({color: colours.edges, transparent: true,
                                                                              opacity: 0.3})));
  // The level: its triangles from the static site's OBJ, or the polygons the server sends.
  const level = ArrayBuffer.isView(world.level) ? world.level
                : world.level_geometry ? fanTriangles(world.level_geometry) : null;
  if (level) {
    const levelGeometry = new THREE.BufferGeometry();
    levelGeometry.setAttribute('position', new THREE.BufferAttribute(level, 3));
    group.add(new THREE.Mesh(levelGeometry, new THREE.MeshBasicMaterial({color: colours.level, transparent: true,
                                                                          opacity: 0.12, depthWrite: false,
                                                                          side: THREE.DoubleSide})));
  }
  const {min, max} = world.bounds;
  return {group, pickable: surface, box: new THREE.Box3(new THREE.Vector3(...min), new THREE.Vector3(...max))};
}

// Where a world point is drawn: mesh points as they are, voxel places at the middle of the
// block's floor.
function scenePoint(world, point) {
  return world.kind === 'voxel' ? new THREE.Vector3(point[0] + 0.5, point[1] + 0.05, point[2] + 0.5)
                                : new THREE.Vector3(point[0], point[1], point[2]);
}

// Whether WebGL is drawn by the processor (SwiftShader, llvmpipe: no graphics card, or a
// headless browser). There 4x multisampling costs most of a frame (a pan over a 20,000-polygon
// mesh went from 150 ms to 17 ms a frame without it; docs/benchmarks.md), so edges stay jagged.
let software = null;
function softwareRenderer() {
  if (software === null) {
    const gl = document.createElement('canvas').getContext('webgl2') ?? document.createElement('canvas').getContext('webgl');
    const info = gl?.getExtension('WEBGL_debug_renderer_info');
    const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
    software = /swiftshader|llvmpipe|softpipe|software/i.test(name);
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
  }
  return software;
}

export function createView3d(canvas, world, {onPick, onHover}) {
  const renderer = new THREE.WebGLRenderer({canvas, antialias: !softwareRenderer(), preserveDrawingBuffer: true});
  renderer.setPixelRatio(1);  // the canvas is sized in device pixels by the page
  renderer.setClearColor(colours.background);
  const scene = new THREE.Scene();
  const built = world.kind === 'voxel' ? voxelObjects(world) : navMeshObjects(world);
  scene.add(built.group);
  const size = built.box.getSize(new THREE.Vector3()).length() || 1;
  const camera = new THREE.PerspectiveCamera(45, canvas.width / Math.max(1, canvas.height), size / 1000, size * 20);
  const controls = new OrbitControls(camera, canvas);
  controls.screenSpacePanning = true;
  const marks = new THREE.Group();   // path, corridor, start and goal: rebuilt by show()
  scene.add(marks);
  let traced = null;   // {trace, points}: the trace shown, its first `shown` events drawn
  const render = () => renderer.render(scene, camera);
  // A drag sends several pointer moves a frame: the camera's changes are drawn once a frame.
  let frame = 0;
  controls.addEventListener('change', () => {
    frame ||= requestAnimationFrame(() => { frame = 0; render(); });
  });

  function fit() {
    const centre = built.box.getCenter(new THREE.Vector3());
    controls.target.copy(centre);
    // From above and to the south, far enough back that the box's bounding sphere fits the view.
    const distance = 1.05 * (size / 2) / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2) * Math.min(1, camera.aspect));
    camera.position.copy(centre).add(new THREE.Vector3(0, 0.75, 0.65).normalize().multiplyScalar(distance));
    camera.near = size / 1000;
    camera.far = size * 20;
    camera.updateProjectionMatrix();
    controls.update();
    render();
  }

  // The surface point under a mouse event, or null.
  const raycaster = new THREE.Raycaster();
  function pick(event) {
    const rect = canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((event.clientX - rect.left) / rect.width) * 2 - 1,
                                  -((event.clientY - rect.top) / rect.height) * 2 + 1);
    raycaster.setFromCamera(ndc, camera);
    if (world.kind === 'voxel') return built.pick(raycaster.ray);
    const hit = raycaster.intersectObject(built.pickable, false)[0];
    return hit ? [hit.point.x, hit.point.y, hit.point.z] : null;
  }

  let press = null;
  let lastHover = 0;
  canvas.addEventListener('pointerdown', (event) => { press = {x: event.clientX, y: event.clientY, button: event.button}; });
  canvas.addEventListener('pointerup', (event) => {
    const released = press;
    press = null;
    if (!released || released.button !== 0 || Math.hypot(event.clientX - released.x, event.clientY - released.y) > 4) return;
    const point = pick(event);
    if (point) onPick(point, event.shiftKey);
  });
  canvas.addEventListener('pointermove', (event) => {
    if (event.buttons || event.timeStamp - lastHover < 50) return;
    lastHover = event.timeStamp;
    onHover(pick(event));
  });

  // The search's events as points, the first `shown` of them drawn (in the search's order, so
  // that a later event at a place covers an earlier one); built once per trace.
  function showTrace(trace, shown) {
    if (traced?.trace !== trace) {
      if (traced) {
        scene.remove(traced.points);
        traced.points.geometry.dispose();
      }
      traced = null;
      if (!trace?.length) return;
      const positions = new Float32Array(3 * trace.length);
      const eventColours = new Float32Array(3 * trace.length);
      const opened = new THREE.Color(colours.opened), closed = new THREE.Color(colours.closed);
      trace.forEach((event, i) => {
        positions.set(scenePoint(world, event.slice(1)).toArray(), 3 * i);
        eventColours.set((event[0] === 2 ? closed : opened).toArray(), 3 * i);
      });
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
      geometry.setAttribute('color', new THREE.BufferAttribute(eventColours, 3));
      const points = new THREE.Points(geometry, new THREE.PointsMaterial({vertexColors: true, size: 5, sizeAttenuation: false,
                                                                         depthFunc: THREE.LessEqualDepth}));
      traced = {trace, points};
      scene.add(points);
    }
    traced?.points.geometry.setDrawRange(0, shown);
  }

  // discs: flat circles on the surface, {position, radius (world units), colour} (crowd agents);
  // solids: a level's obstacles, {shape: 'cylinder', base, radius, height} or {shape: 'box', min, max}.
  function show({start, goal, path, corridor, trace, shown, discs = [], solids = []}) {
    showTrace(trace, shown ?? 0);
    for (const child of [...marks.children]) {
      marks.remove(child);
      child.geometry?.dispose();
    }
    const radius = size / 250;
    if (world.kind === 'navmesh' && corridor.length) {
      const geometry = meshGeometry(world, corridor, () => new THREE.Color(colours.corridor));
      marks.add(new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({vertexColors: true, side: THREE.DoubleSide,
                                                                      transparent: true, opacity: 0.8})));
    }
    if (path.length >= 2) {
      const points = path.map((p) => scenePoint(world, p));
      const lift = new THREE.Vector3(0, radius, 0);
      const curve = new THREE.CurvePath();
      for (let i = 0; i + 1 < points.length; ++i)
        curve.add(new THREE.LineCurve3(points[i].clone().add(lift), points[i + 1].clone().add(lift)));
      marks.add(new THREE.Mesh(new THREE.TubeGeometry(curve, Math.min(4000, 8 * points.length), radius, 6, false),
                               new THREE.MeshBasicMaterial({color: colours.path})));
      // A thin line drawn over everything, so that the path shows behind walls too.
      const line = new THREE.Line(new THREE.BufferGeometry().setFromPoints(points),
                                  new THREE.LineBasicMaterial({color: colours.path, depthTest: false}));
      line.renderOrder = 1;
      marks.add(line);
    }
    for (const [point, colour] of [[start, colours.start], [goal, colours.goal]]) {
      if (!point) continue;
      const ball = new THREE.Mesh(new THREE.SphereGeometry(radius * 3, 16, 12), new THREE.MeshBasicMaterial({color: colour}));
      ball.position.copy(scenePoint(world, point));
      marks.add(ball);
    }
    for (const solid of solids) {
      const cylinder = solid.shape === 'cylinder';
      const geometry = cylinder ? new THREE.CylinderGeometry(solid.radius, solid.radius, solid.height, 24)
                                : new THREE.BoxGeometry(...solid.max.map((v, i) => v - solid.min[i]));
      const body = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({color: colours.obstacle, transparent: true,
                                                                          opacity: 0.75}));
      body.position.set(...(cylinder ? [solid.base[0], solid.base[1] + solid.height / 2, solid.base[2]]
                                     : solid.min.map((v, i) => (v + solid.max[i]) / 2)));
      marks.add(body);
    }
    for (const disc of discs) {
      const circle = new THREE.Mesh(new THREE.CircleGeometry(disc.radius, 24),
                                    new THREE.MeshBasicMaterial({color: disc.colour, side: THREE.DoubleSide}));
      circle.rotation.x = -Math.PI / 2;
      circle.position.copy(scenePoint(world, disc.position)).add(new THREE.Vector3(0, radius, 0));
      marks.add(circle);
    }
    render();
  }

  return {
    show,
    fit,
    resize(width, height) {
      renderer.setSize(width, height, false);
      camera.aspect = width / Math.max(1, height);
      camera.updateProjectionMatrix();
      if (!this.fitted) { this.fitted = true; fit(); } else render();
    },
    // Where the camera is and looks, to see a rebuilt view from the same place: with no argument
    // {position, target}; with one, moves the camera there.
    viewpoint(to) {
      if (!to) return {position: camera.position.clone(), target: controls.target.clone()};
      camera.position.copy(to.position);
      controls.target.copy(to.target);
      controls.update();
      render();
      return to;
    },
    // A world point in the canvas's pixels (for clicking it in tests).
    project(point) {
      const ndc = scenePoint(world, point).project(camera);
      return [(ndc.x + 1) / 2 * canvas.width, (1 - ndc.y) / 2 * canvas.height];
    },
    // For tests and measurements: the camera, the controls, and what the scene holds.
    camera,
    controls,
    scene,
    dispose() {
      cancelAnimationFrame(frame);
      controls.dispose();
      renderer.dispose();
    },
  };
}
