// Temporary obstacles on a tiled navigation mesh (C++ NavMeshTileCache, C wf_navmesh_tile_cache;
// docs/navmesh.md, "Temporary obstacles and area volumes").
using System;

namespace Wayfinder
{
    /// <summary>
    /// A tiled navigation mesh's tile cache (C++ NavMeshTileCache, C wf_navmesh_tile_cache): it
    /// keeps each tile's voxels, so that obstacles added and removed at run time rebuild only the
    /// tiles they touch. Made together with its mesh (<see cref="BuildObj"/>, <see cref="LoadWfnav"/>),
    /// which it hands out as <see cref="Mesh"/>; the mesh is the caller's, disposed on its own (a
    /// mesh disposed while queries or crowds on it live is freed with the last of them). One thread
    /// at a time uses a cache. Adding, removing and updating allocate nothing in C#.
    /// </summary>
    public sealed unsafe class NavMeshTileCache : IDisposable
    {
        /// <summary>The tile side the C API uses when no settings are given (cells).</summary>
        public const int DefaultTileSize = 48;

        private readonly NavMeshTileCacheHandle handle;

        /// <summary>The live handle (ObjectDisposedException once disposed).</summary>
        internal NavMeshTileCacheHandle Handle { get { handle.ThrowIfDisposed("NavMeshTileCache"); return handle; } }

        private NavMeshTileCache(IntPtr cache, IntPtr mesh)
        {
            handle = new NavMeshTileCacheHandle();
            handle.Adopt(cache, null);
            Mesh = new NavMesh(mesh);
        }

        /// <summary>
        /// The tiled mesh this cache rebuilds: a <see cref="NavMesh"/> like any other, searched by
        /// <see cref="NavMeshQuery"/> and walked by <see cref="Crowd"/>. The caller disposes it.
        /// </summary>
        public NavMesh Mesh { get; private set; }

        /// <summary>
        /// Builds a level's navigation mesh in tiles of settings.TileSize cells a side (8 to 4096;
        /// settings null: the defaults with tiles of <see cref="DefaultTileSize"/>) from a Wavefront
        /// OBJ file (y up, or z up), and its tile cache (C wf_navmesh_tile_cache_create_obj, C++
        /// build_navmesh_tiles). Errors as <see cref="NavMesh.BuildObj"/>; a TileSize of 0 throws a
        /// WayfinderException (InvalidArgument).
        /// </summary>
        public static NavMeshTileCache BuildObj(string path, AgentSettings settings = null, bool zUp = false)
        {
            byte[] utf8Path = Native.Utf8Path(path);
            byte[] error = Native.ErrorBuffer();
            IntPtr cache, mesh;
            Status status;
            if (settings == null)
            {
                status = NativeMethods.wf_navmesh_tile_cache_create_obj(utf8Path, zUp ? 1 : 0, null, out cache, out mesh, error,
                                                                        Native.Capacity(error));
            }
            else
            {
                NativeAgentSettings native = settings.ToNative();
                status = NativeMethods.wf_navmesh_tile_cache_create_obj(utf8Path, zUp ? 1 : 0, &native, out cache, out mesh, error,
                                                                        Native.Capacity(error));
            }
            Native.CheckCreated(status, error);
            return new NavMeshTileCache(cache, mesh);
        }

        /// <summary>
        /// Reads a file <see cref="SaveWfnav"/> wrote (C wf_navmesh_tile_cache_load_wfnav): the tiled
        /// mesh and its cache, which rebuilds tiles as the one saved did, without the level. A
        /// damaged, truncated or foreign file, or one without the tile cache section, throws a
        /// WayfinderException (LoadError) naming the file and the byte where the problem is.
        /// </summary>
        public static NavMeshTileCache LoadWfnav(string path)
        {
            byte[] utf8Path = Native.Utf8Path(path);
            byte[] error = Native.ErrorBuffer();
            IntPtr cache, mesh;
            Native.CheckCreated(NativeMethods.wf_navmesh_tile_cache_load_wfnav(utf8Path, out cache, out mesh, error, Native.Capacity(error)),
                                error);
            return new NavMeshTileCache(cache, mesh);
        }

        /// <summary>
        /// Writes <see cref="Mesh"/> and the cache's data (settings, packed heightfields; not its
        /// obstacles) as one baked navmesh file, replacing `path` (C wf_navmesh_tile_cache_save_wfnav).
        /// Save before adding obstacles. A file that cannot be written throws a WayfinderException
        /// (LoadError) naming it.
        /// </summary>
        public void SaveWfnav(string path)
        {
            byte[] utf8Path = Native.Utf8Path(path);
            Native.Check(NativeMethods.wf_navmesh_tile_cache_save_wfnav(Handle, Mesh.Handle, utf8Path), Handle);
        }

        /// <summary>
        /// Adds a vertical cylinder standing on `bottom` (its bottom centre), radius and height in
        /// world units (&gt;= 0); returns its id (C wf_navmesh_tile_cache_add_cylinder). Its tiles
        /// are rebuilt by the next <see cref="Update(int)"/>. A NaN or infinite value or a negative
        /// size throws a WayfinderException (InvalidArgument) naming the field.
        /// </summary>
        public uint AddCylinder(Vector3d bottom, double radius, double height)
        {
            uint id;
            Native.Check(NativeMethods.wf_navmesh_tile_cache_add_cylinder(Handle, &bottom, radius, height, &id), Handle);
            return id;
        }

        /// <summary>
        /// Adds an axis-aligned box from `min` to `max` (each of min's coordinates at most max's);
        /// returns its id (C wf_navmesh_tile_cache_add_box).
        /// </summary>
        public uint AddBox(Vector3d min, Vector3d max)
        {
            uint id;
            Native.Check(NativeMethods.wf_navmesh_tile_cache_add_box(Handle, &min, &max, &id), Handle);
            return id;
        }

        /// <summary>
        /// Removes an obstacle (C wf_navmesh_tile_cache_remove); an id this cache did not give, or
        /// already removed, throws a WayfinderException (InvalidArgument).
        /// </summary>
        public void Remove(uint obstacleId) { Native.Check(NativeMethods.wf_navmesh_tile_cache_remove(Handle, obstacleId), Handle); }

        /// <summary>
        /// Rebuilds queued tiles (at most maxTiles; 0: all of them), oldest change first, and puts
        /// them into <see cref="Mesh"/> (C wf_navmesh_tile_cache_update). An edit of the mesh: no
        /// query or crowd update on it may run meanwhile. Returns the number of tiles rebuilt.
        /// Once <see cref="Mesh"/> is disposed, this and <see cref="SaveWfnav"/> throw an
        /// ObjectDisposedException.
        /// </summary>
        public int Update(int maxTiles = 0)
        {
            int pending;
            return Update(maxTiles, out pending);
        }

        /// <summary>As <see cref="Update(int)"/>; `pending` is the number of tiles still queued.</summary>
        public int Update(int maxTiles, out int pending)
        {
            UIntPtr rebuilt, queued;
            Native.Check(NativeMethods.wf_navmesh_tile_cache_update(Handle, Mesh.Handle, Native.Size(maxTiles, "maxTiles"), &rebuilt, &queued),
                         Handle);
            pending = Native.Count(queued);
            return Native.Count(rebuilt);
        }

        /// <summary>Frees the cache; <see cref="Mesh"/> is not touched.</summary>
        public void Dispose() { handle.Dispose(); }
    }
}
