// The 3D view of a navigation mesh or a voxel world, with three.js (the static site bundles it,
// tools/viewer/static): the mesh's polygons shaded by region at their heights (and a level's
// triangles faintly under them when one was opened), or the world's visible blocks as one
// instanced box; the path as a 3D line, the corridor's polygons, start and goal. The left button
// turns the camera about its target, the right one (or shift + left) pans, the wheel zooms; a
// click without a drag picks a point on the surface: on a mesh the point hit, in a voxel world
// the place beside the face hit (on a top face: standing on that block).
import * as THREE from 'three';
import {OrbitControls} from 'three/addons/controls/OrbitControls.js';

const colours = {background: 0xdddddd, path: 0x2166ac, start: 0x1a9850, goal: 0xd73027, corridor: 0x78b4e6,
                 edges: 0x000000, level: 0x6b6b6b, water: 0x4a78ff, ladder: 0xb08040};
const blockCodes = {air: 0, solid: 1, water: 2, ladder: 3};

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
  if (world.level) {
    const levelGeometry = new THREE.BufferGeometry();
    levelGeometry.setAttribute('position', new THREE.BufferAttribute(world.level, 3));
    group.add(new THREE.Mesh(levelGeometry, new THREE.MeshBasicMaterial({color: colours.level, transparent: true,
                                                                          opacity: 0.12, depthWrite: false,
                                                                          side: THREE.DoubleSide})));
  }
  const {min, max} = world.bounds;
  return {group, pickable: surface, box: new THREE.Box3(new THREE.Vector3(...min), new THREE.Vector3(...max))};
}

// The blocks a camera can see (a face next to air or the world's edge), as one instanced box.
// Without every block (the server describes columns only), each column's top block.
function voxelObjects(world) {
  const [sx, sy, sz] = world.size;
  const positions = [];
  const kinds = [];
  if (world.blocks) {
    const at = (x, y, z) => (x < 0 || y < 0 || z < 0 || x >= sx || y >= sy || z >= sz ? 0
                                                                                      : world.blocks[(y * sz + z) * sx + x]);
    for (let y = 0; y < sy; ++y)
      for (let z = 0; z < sz; ++z)
        for (let x = 0; x < sx; ++x) {
          const kind = world.blocks[(y * sz + z) * sx + x];
          if (kind === blockCodes.air) continue;
          if (at(x + 1, y, z) && at(x - 1, y, z) && at(x, y + 1, z) && at(x, y - 1, z) && at(x, y, z + 1) && at(x, y, z - 1))
            continue;
          positions.push(x, y, z);
          kinds.push(kind);
        }
  } else {
    world.heights.forEach((h, i) => {
      if (h < 0) return;
      positions.push(i % sx, h, Math.floor(i / sx));
      const letter = world.kinds[i];
      kinds.push(letter === 'w' ? blockCodes.water : letter === 'l' ? blockCodes.ladder : blockCodes.solid);
    });
  }
  const count = kinds.length;
  const boxes = new THREE.InstancedMesh(new THREE.BoxGeometry(1, 1, 1), new THREE.MeshLambertMaterial(), Math.max(1, count));
  boxes.count = count;
  const matrix = new THREE.Matrix4();
  const colour = new THREE.Color();
  for (let i = 0; i < count; ++i) {
    const [x, y, z] = [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]];
    matrix.makeTranslation(x + 0.5, y + 0.5, z + 0.5);
    boxes.setMatrixAt(i, matrix);
    if (kinds[i] === blockCodes.water) colour.set(colours.water);
    else if (kinds[i] === blockCodes.ladder) colour.set(colours.ladder);
    else colour.setHSL(0.25 - 0.2 * (y / Math.max(1, sy - 1)), 0.25, 0.35 + 0.45 * (y / Math.max(1, sy - 1)));
    boxes.setColorAt(i, colour);
  }
  boxes.userData.positions = positions;
  const group = new THREE.Group();
  group.add(boxes);
  group.add(new THREE.HemisphereLight(0xffffff, 0x606060, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.4);
  sun.position.set(0.4 * sx, 2 * sy + sx, 0.7 * sz);
  group.add(sun);
  // The camera frames the blocks, not the (often mostly empty) world.
  const box = new THREE.Box3();
  for (let i = 0; i < count; ++i) {
    box.expandByPoint(new THREE.Vector3(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]));
    box.expandByPoint(new THREE.Vector3(positions[3 * i] + 1, positions[3 * i + 1] + 1, positions[3 * i + 2] + 1));
  }
  if (count === 0) box.set(new THREE.Vector3(0, 0, 0), new THREE.Vector3(sx, sy, sz));
  return {group, pickable: boxes, box};
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
    const hit = raycaster.intersectObject(built.pickable, false)[0];
    if (!hit) return null;
    if (world.kind !== 'voxel') return [hit.point.x, hit.point.y, hit.point.z];
    const positions = built.pickable.userData.positions;
    const block = [0, 1, 2].map((i) => positions[3 * hit.instanceId + i]);
    const normal = hit.face.normal;
    const place = [block[0] + Math.round(normal.x), block[1] + Math.round(normal.y), block[2] + Math.round(normal.z)];
    const [sx, sy, sz] = world.size;
    return place.every((v, i) => v >= 0 && v < [sx, sy, sz][i]) ? place : null;
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

  // discs: flat circles on the surface, {position, radius (world units), colour} (crowd agents).
  function show({start, goal, path, corridor, discs = []}) {
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
    // A world point in the canvas's pixels (for clicking it in tests).
    project(point) {
      const ndc = scenePoint(world, point).project(camera);
      return [(ndc.x + 1) / 2 * canvas.width, (1 - ndc.y) / 2 * canvas.height];
    },
    // For tests and measurements: the camera and the controls.
    camera,
    controls,
    dispose() {
      cancelAnimationFrame(frame);
      controls.dispose();
      renderer.dispose();
    },
  };
}
