// The drawing side of the files the static viewer opens: a navigation mesh's vertices and
// polygons read from its OBJ or Polyanya text (the WebAssembly module searches the mesh but
// does not hand its polygons back), its connected regions, and a level OBJ's triangles drawn
// faintly under the mesh. Points are [x, y, z] with y up, as the library's.

// Wavefront OBJ: `v x y z` and `f a b c ...` (1-based, negative = from the end, `a/t/n` forms),
// y up as the library reads it by default.
export function readObj(text) {
  const vertices = [];
  const polygons = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields[0] === 'v' && fields.length >= 4) {
      vertices.push(fields.slice(1, 4).map(Number));
    } else if (fields[0] === 'f' && fields.length >= 4) {
      polygons.push(fields.slice(1).map((field) => {
        const index = parseInt(field.split('/')[0], 10);
        return index < 0 ? vertices.length + index : index - 1;
      }));
    }
  }
  if (polygons.length === 0) throw new Error('the OBJ has no faces');
  return {vertices, polygons};
}

// Polyanya's mesh format (version 2): "mesh", "2", the counts, then each vertex as
// `x y neighbours...` and each polygon as `n v1 ... vn adjacent...`. Its 2D (x, y) is the
// library's (x, 0, y).
export function readPolyanya(text) {
  const tokens = text.split(/\s+/).filter((t) => t.length > 0);
  if (tokens[0] !== 'mesh' || tokens[1] !== '2') throw new Error('not a Polyanya mesh (version 2)');
  let at = 2;
  const next = () => Number(tokens[at++]);
  const vertexCount = next();
  const polygonCount = next();
  const vertices = [];
  for (let v = 0; v < vertexCount; ++v) {
    const x = next(), y = next();
    const neighbours = next();
    at += neighbours;
    vertices.push([x, 0, y]);
  }
  const polygons = [];
  for (let p = 0; p < polygonCount; ++p) {
    const n = next();
    const corners = [];
    for (let i = 0; i < n; ++i) corners.push(next());
    at += n;
    polygons.push(corners);
  }
  return {vertices, polygons};
}

// Polygons that share an edge are in one region (union-find over the edges).
export function meshRegions(polygons) {
  const parent = polygons.map((_, i) => i);
  const find = (i) => { while (parent[i] !== i) i = parent[i] = parent[parent[i]]; return i; };
  const owner = new Map();
  polygons.forEach((polygon, p) => {
    polygon.forEach((a, i) => {
      const b = polygon[(i + 1) % polygon.length];
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      const other = owner.get(key);
      if (other === undefined) owner.set(key, p); else parent[find(other)] = find(p);
    });
  });
  const numbers = new Map();
  const regions = polygons.map((_, p) => {
    const root = find(p);
    if (!numbers.has(root)) numbers.set(root, numbers.size);
    return numbers.get(root);
  });
  return {regions, regionCount: numbers.size};
}

// What the viewer draws of a mesh, in the shape `wayfinder serve` describes one.
export function meshDescription({vertices, polygons}) {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (const polygon of polygons)
    for (const v of polygon)
      for (let i = 0; i < 3; ++i) {
        min[i] = Math.min(min[i], vertices[v][i]);
        max[i] = Math.max(max[i], vertices[v][i]);
      }
  const {regions, regionCount} = meshRegions(polygons);
  return {vertices, polygons, regions, region_count: regionCount, bounds: {min, max}};
}

// A level's triangles as one flat array of x, y, z (for the 3D view's faint backdrop).
export function levelTriangles(text) {
  return fanTriangles(readObj(text));
}

// Polygons ({vertices, polygons}, as readObj reads them and the server's level_geometry
// sends them) as one flat array of triangles' x, y, z, each polygon a fan.
export function fanTriangles({vertices, polygons}) {
  const out = [];
  for (const polygon of polygons)
    for (let i = 1; i + 1 < polygon.length; ++i)
      for (const v of [polygon[0], polygon[i], polygon[i + 1]]) out.push(...vertices[v]);
  return new Float32Array(out);
}
