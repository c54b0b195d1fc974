// Names for the numbers of wf_js_struct_layout (wasm/struct_layout.cpp), in the same order: the
// sizes and field offsets of the C API's structures in the WebAssembly module's memory.
const names = [
  'result.size', 'result.status', 'result.reason', 'result.cost', 'result.nodeCount', 'result.pointCount',
  'result.expanded', 'result.generated', 'result.peakOpen', 'result.microseconds',
  'limits.size', 'limits.maxExpansions', 'limits.maxCost', 'limits.maxMilliseconds', 'limits.returnPartial',
  'limits.partialWhenUnreachable',
  'grid.size', 'grid.limits', 'grid.algorithm', 'grid.diagonal', 'grid.heuristic', 'grid.weight',
  'grid.walkerStepLimit',
  'navmesh.size', 'navmesh.limits', 'navmesh.nodes', 'navmesh.weight', 'navmesh.heightTolerance',
  'navmesh.snapDistance', 'navmesh.filter',
  'voxel.size', 'voxel.limits', 'voxel.algorithm', 'voxel.weight', 'voxel.profile',
  'profile.size', 'profile.ints', 'profile.doubles',
  'gridRequest.size', 'gridRequest.coordinates', 'gridRequest.options',
  'navmeshRequest.size', 'navmeshRequest.start', 'navmeshRequest.goal', 'navmeshRequest.options',
  'voxelRequest.size', 'voxelRequest.start', 'voxelRequest.goal', 'voxelRequest.options',
  'crowd.size', 'crowd.threads', 'crowd.timeHorizon', 'crowd.wallTimeHorizon', 'crowd.neighbourDistance',
  'crowd.maxNeighbours', 'crowd.collisionIterations', 'crowd.stuckTime', 'crowd.stuckProgress',
  'crowd.settleSpeedFraction', 'crowd.maxMovePolygons', 'crowd.wallClearance', 'crowd.targetSnapDistance',
  'agent.size', 'agent.radius', 'agent.height', 'agent.maxSpeed', 'agent.maxAcceleration', 'agent.avoidancePriority',
  'agent.arrivalRadius', 'agent.userId',
  'filter.size', 'filter.areaCosts', 'filter.includeFlags', 'filter.excludeFlags',
];

/** Reads the module's table into { 'result.size': 48, ... }. */
export function readStructLayout(module) {
  const countAddress = module._malloc(4);
  try {
    const table = module._wf_js_struct_layout(countAddress);
    const count = module.HEAPU32[countAddress >> 2];
    if (count !== names.length) {
      throw new Error(`wayfinder: the WebAssembly module describes ${count} layout entries, this script knows ${names.length}`);
    }
    const layout = {};
    names.forEach((name, i) => { layout[name] = module.HEAPU32[(table >> 2) + i]; });
    return layout;
  } finally {
    module._free(countAddress);
  }
}
