// A voxel world's visible faces for the 3D view, as few triangles as the blocks allow: the faces
// between a block and air (or the world's edge) are merged into rectangles of one block kind
// by greedy meshing (each slice of faces is swept row by row, a rectangle grown first along the
// row, then over the rows below while they match; Mikola Lysenko, "Meshing in a Minecraft
// Game", 2012), in chunks of 32 x 32 columns, so that three.js leaves the chunks outside the
// view undrawn. Each vertex carries its colour (lighter higher up, shaded by the face's
// direction), so that an unlit material draws it: no lighting per pixel, which a software
// renderer pays for on every pixel. Picking walks the ray through the blocks themselves
// (Amanatides & Woo, "A Fast Voxel Traversal Algorithm for Ray Tracing", 1987), not through
// the triangles.
import * as THREE from 'three';

export const blockCodes = {air: 0, solid: 1, water: 2, ladder: 3};
const chunkColumns = 32;
// How light each face direction is drawn (+x, -x, +y, -y, +z, -z), as a sun from above and
// the south would light it.
const faceShade = [0.8, 0.72, 1.0, 0.5, 0.88, 0.64];
const fixedColours = {[blockCodes.water]: new THREE.Color(0x4a78ff), [blockCodes.ladder]: new THREE.Color(0xb08040)};

// The colour of a solid block's face at height y (as the 2D view: lighter is higher).
function heightColours(sy) {
  const colours = [];
  const colour = new THREE.Color();
  for (let y = 0; y <= sy; ++y) {
    const t = Math.min(1, y / Math.max(1, sy - 1));
    colour.setHSL(0.25 - 0.2 * t, 0.25, 0.35 + 0.45 * t);
    colours.push([colour.r, colour.g, colour.b]);
  }
  return colours;
}

// The merged faces of the columns [x0, x1) x [z0, z1), all heights, as one BufferGeometry.
function chunkGeometry(blocks, size, x0, x1, z0, z1, colours) {
  const [sx, sy, sz] = size;
  const at = (x, y, z) => (x < 0 || y < 0 || z < 0 || x >= sx || y >= sy || z >= sz ? 0 : blocks[(y * sz + z) * sx + x]);
  const positions = [];
  const vertexColours = [];
  const indices = [];
  const low = [x0, 0, z0], high = [x1, sy, z1];
  const p = [0, 0, 0];
  for (let d = 0; d < 3; ++d) {
    // The slice's own axes: (d, u, v) is a cyclic order of (x, y, z), so that u x v points along +d.
    const u = (d + 1) % 3, v = (d + 2) % 3;
    const width = high[u] - low[u], height = high[v] - low[v];
    const mask = new Uint8Array(width * height);
    for (const direction of [1, -1]) {
      const face = 2 * d + (direction > 0 ? 0 : 1);
      for (let s = low[d]; s < high[d]; ++s) {
        // Which faces of this slice are visible: a block with air on the `direction` side.
        let any = false;
        for (let j = 0; j < height; ++j)
          for (let i = 0; i < width; ++i) {
            p[d] = s; p[u] = low[u] + i; p[v] = low[v] + j;
            const kind = at(p[0], p[1], p[2]);
            let visible = 0;
            if (kind !== 0) {
              p[d] += direction;
              if (at(p[0], p[1], p[2]) === 0) visible = kind;
            }
            mask[j * width + i] = visible;
            any ||= visible !== 0;
          }
        if (!any) continue;
        const plane = direction > 0 ? s + 1 : s;
        for (let j = 0; j < height; ++j)
          for (let i = 0; i < width;) {
            const kind = mask[j * width + i];
            if (kind === 0) { ++i; continue; }
            let w = 1;
            while (i + w < width && mask[j * width + i + w] === kind) ++w;
            let h = 1;
            grow: for (; j + h < height; ++h)
              for (let k = 0; k < w; ++k) if (mask[(j + h) * width + i + k] !== kind) break grow;
            for (let l = 0; l < h; ++l) mask.fill(0, (j + l) * width + i, (j + l) * width + i + w);
            const first = positions.length / 3;
            for (const [du, dv] of [[0, 0], [w, 0], [w, h], [0, h]]) {
              p[d] = plane; p[u] = low[u] + i + du; p[v] = low[v] + j + dv;
              positions.push(p[0], p[1], p[2]);
              const base = fixedColours[kind] ? [fixedColours[kind].r, fixedColours[kind].g, fixedColours[kind].b]
                                              : colours[Math.min(sy, p[1])];
              vertexColours.push(base[0] * faceShade[face], base[1] * faceShade[face], base[2] * faceShade[face]);
            }
            // Counter-clockwise seen from the side the face looks to.
            if (direction > 0) indices.push(first, first + 1, first + 2, first, first + 2, first + 3);
            else indices.push(first, first + 2, first + 1, first, first + 3, first + 2);
            i += w;
          }
      }
    }
  }
  if (indices.length === 0) return null;
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
  geometry.setAttribute('color', new THREE.Float32BufferAttribute(vertexColours, 3));
  geometry.setIndex(positions.length / 3 > 65535 ? new THREE.Uint32BufferAttribute(indices, 1)
                                                 : new THREE.Uint16BufferAttribute(indices, 1));
  geometry.computeBoundingBox();
  geometry.computeBoundingSphere();
  return geometry;
}

// Every block (world.blocks, as the WebAssembly build gives them) or, from a description with
// columns only, each column's top block.
function blocksOf(world) {
  if (world.blocks) return world.blocks;
  const [sx, sy, sz] = world.size;
  const blocks = new Uint8Array(sx * sy * sz);
  world.heights.forEach((h, i) => {
    if (h < 0) return;
    const letter = world.kinds[i];
    blocks[(h * sz + Math.floor(i / sx)) * sx + (i % sx)] =
      letter === 'w' ? blockCodes.water : letter === 'l' ? blockCodes.ladder : blockCodes.solid;
  });
  return blocks;
}

// The world's chunks as meshes of one shared material, the box around their blocks, and
// pick(ray): the place beside the first block face the ray meets, or null.
export function voxelObjects(world) {
  const size = world.size;
  const [sx, sy, sz] = size;
  const blocks = blocksOf(world);
  const colours = heightColours(sy);
  const material = new THREE.MeshBasicMaterial({vertexColors: true});
  const group = new THREE.Group();
  const box = new THREE.Box3();
  let triangles = 0;
  for (let z0 = 0; z0 < sz; z0 += chunkColumns)
    for (let x0 = 0; x0 < sx; x0 += chunkColumns) {
      const geometry = chunkGeometry(blocks, size, x0, Math.min(sx, x0 + chunkColumns), z0, Math.min(sz, z0 + chunkColumns),
                                     colours);
      if (!geometry) continue;
      triangles += geometry.index.count / 3;
      box.union(geometry.boundingBox);
      group.add(new THREE.Mesh(geometry, material));
    }
  if (box.isEmpty()) box.set(new THREE.Vector3(0, 0, 0), new THREE.Vector3(sx, sy, sz));
  group.userData = {chunks: group.children.length, triangles};

  const at = (x, y, z) => blocks[(y * sz + z) * sx + x];
  function pick(ray) {
    // Clip the ray to the world's box, then step from block to block.
    const worldBox = new THREE.Box3(new THREE.Vector3(0, 0, 0), new THREE.Vector3(sx, sy, sz));
    const entry = worldBox.containsPoint(ray.origin) ? ray.origin.clone() : ray.intersectBox(worldBox, new THREE.Vector3());
    if (!entry) return null;
    const origin = [entry.x, entry.y, entry.z], direction = [ray.direction.x, ray.direction.y, ray.direction.z];
    const cell = origin.map((v, i) => Math.min(size[i] - 1, Math.max(0, Math.floor(v))));
    const step = direction.map((v) => (v > 0 ? 1 : v < 0 ? -1 : 0));
    const next = cell.map((c, i) => (step[i] === 0 ? Infinity
                                                   : ((step[i] > 0 ? c + 1 : c) - origin[i]) / direction[i]));
    const delta = direction.map((v) => (v === 0 ? Infinity : Math.abs(1 / v)));
    let entered = -1;  // the axis crossed into the current block
    // The face of the box the ray came in by: the block before it is outside.
    for (let i = 0; i < 3; ++i) if (origin[i] <= 1e-9 || origin[i] >= size[i] - 1e-9) entered = i;
    for (let guard = 0; guard < sx + sy + sz + 3; ++guard) {
      if (at(cell[0], cell[1], cell[2]) !== blockCodes.air) {
        if (entered < 0) return null;
        const place = [...cell];
        place[entered] -= step[entered];
        return place.every((v, i) => v >= 0 && v < size[i]) ? place : null;
      }
      const axis = next[0] < next[1] ? (next[0] < next[2] ? 0 : 2) : (next[1] < next[2] ? 1 : 2);
      cell[axis] += step[axis];
      if (cell[axis] < 0 || cell[axis] >= size[axis]) return null;
      next[axis] += delta[axis];
      entered = axis;
    }
    return null;
  }
  return {group, box, pick};
}
