#pragma once
// A navigation mesh: convex polygons joined by shared edges, on which agents walk. It is built
// from MeshGeometry (a file or arrays), or from one geometry per tile of a grid (build_tiled);
// any number of threads can query it at once, each with its own NavMeshQuery. What can change is
// each polygon's area and flags (what the ground is, what it allows: a door closing, a swamp
// drained), which queries read through their AreaFilter, and, on a tiled mesh, whole tiles
// (replace_tile); such edits need exclusive access, are counted in revision() and logged
// (changes_since), as a grid's cell edits are.
//
// The build step checks the input, makes every polygon convex and counter-clockwise seen from
// above (+y), finds which polygons share each edge (adjacency), labels connected regions (so
// that a query between regions is answered at once without searching) and builds a uniform
// grid over the x-z plane for point location.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/change_log.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/navmesh/mesh_geometry.hpp"
#include "wayfinder/navmesh/nav_mesh_tiles.hpp"
#include "wayfinder/navmesh/off_mesh_link.hpp"

namespace wayfinder {

class EdgePointGraph;

using PolygonId = std::uint32_t;
inline constexpr PolygonId invalid_polygon = invalid_node;

/// One edited polygon, as the mesh's change log records it: its area and flags before the edit.
struct NavMeshPolygonChange {
  PolygonId polygon = invalid_polygon;
  AreaId area_before = 0;
  AreaFlags flags_before = 0;
  std::uint64_t revision = 0;  ///< the mesh's revision once the edit was made
  /// True when the polygon's tile was replaced or removed (NavMesh::replace_tile): its geometry,
  /// not only its tags, changed, and a corridor through it no longer holds.
  bool tile_replaced = false;
};

/// Something the build step noticed and worked around; a fatal problem throws LoadError instead.
struct MeshProblem {
  enum class Kind : std::uint8_t {
    repeated_vertex,       ///< a vertex listed twice in a row (or first = last); the repeat is dropped
    degenerate_polygon,    ///< zero area, or fewer than 3 distinct vertices; the polygon is dropped
    concave_polygon,       ///< not convex; split into triangles
    non_manifold_edge,     ///< an edge used by more than two polygons; it is treated as a wall
    inconsistent_winding,  ///< two neighbours walk their shared edge the same way (kept, but suspect)
  };
  Kind kind;
  std::uint32_t polygon;  ///< the input polygon (index in MeshGeometry::polygons)
  int line;               ///< its line in the source file, 0 if unknown
  std::string message;    ///< "file:line: what"
};

struct NavMeshBuildOptions {
  /// Side of the point-location grid's cells in world units; 0 picks one from the mean polygon size.
  double locator_cell_size = 0.0;
};

/// Axis-aligned box.
struct Bounds {
  Point min;
  Point max;
};

/// A point on the mesh and the polygon it lies in.
struct MeshLocation {
  PolygonId polygon = invalid_polygon;
  Point point;
  [[nodiscard]] bool valid() const { return polygon != invalid_polygon; }
};

class NavMesh {
 public:
  /// How far above or below a polygon's surface (world units) a point still counts as standing
  /// on it: the vertical half-extent of point location, as the y of the half-extents Detour's
  /// findNearestPoly takes. 4 is RecastDemo's; why: docs/navmesh.md, "Point location".
  static constexpr double default_height_tolerance = 4.0;

  /// Checks and builds. Throws LoadError (source, line, cause) for fatal input: an empty mesh,
  /// a polygon with fewer than 3 vertices, an index out of range, a non-finite coordinate, or a
  /// mesh left with no polygon after dropping degenerate ones. Other problems are repaired and
  /// listed in problems().
  static NavMesh build(const MeshGeometry& geometry, const NavMeshBuildOptions& options = {});

  /// The same from flat arrays: `polygon_sizes[i]` consecutive entries of `indices` form polygon i.
  /// Throws LoadError when the sizes ask for more indices than there are, or leave some over.
  static NavMesh from_arrays(std::span<const Point> vertices, std::span<const std::uint32_t> indices,
                             std::span<const std::uint32_t> polygon_sizes,
                             const NavMeshBuildOptions& options = {});

  /// The same from an engine's float positions, without converting them first: vertex i is the
  /// three floats (x, y, z) at byte offset i * `stride_bytes` from `vertices` (as Recast and
  /// graphics APIs lay out vertex buffers; 0 means tightly packed, 12 bytes). The positions are
  /// read with memcpy, so they need no particular alignment (the buffer must hold `vertex_count`
  /// vertices at that stride). Indices may be 32- or 16-bit. The mesh is exactly the one the
  /// Point version builds from the same positions (every float is exactly a double). Throws
  /// LoadError for a null `vertices` with a non-zero count, a stride below 12 bytes, or a count
  /// and stride that span more memory than any buffer can (more than PTRDIFF_MAX bytes, or past
  /// the end of the address space), as well as for everything the Point version rejects.
  static NavMesh from_arrays(const float* vertices, std::size_t vertex_count, std::size_t stride_bytes,
                             std::span<const std::uint32_t> indices, std::span<const std::uint32_t> polygon_sizes,
                             const NavMeshBuildOptions& options = {});
  static NavMesh from_arrays(const float* vertices, std::size_t vertex_count, std::size_t stride_bytes,
                             std::span<const std::uint16_t> indices, std::span<const std::uint32_t> polygon_sizes,
                             const NavMeshBuildOptions& options = {});

  /// The mesh as geometry that build() turns back into this mesh (the same polygons in the same
  /// order, so every query answers the same): every vertex, the polygons as built (convex,
  /// counter-clockwise seen from above), each polygon's current area and flags, its detail
  /// triangles when the mesh has detail heights, and the off-mesh links as they were given (in
  /// id order, to be placed again). What build() repaired is not repeated: problems() of the
  /// mesh rebuilt from it lists only what a built mesh still has (non-manifold edges,
  /// inconsistent windings), and source_polygon() becomes the identity. What write_navmesh_file
  /// saves.
  [[nodiscard]] MeshGeometry to_geometry() const;

  // ---- Tiles (nav_mesh_tiles.hpp; docs/navmesh.md, "Tiles that change"). A tiled mesh is
  // built from one geometry per tile of a grid, and single tiles can then be added, replaced
  // or removed while the others stay put: every other tile keeps its polygon ids. Every query
  // works on a tiled mesh as on any other; a replaced tile's polygons are logged (revision(),
  // changes_since with tile_replaced set), so a stepped search ends with world_changed and
  // first_blocked_polygon reports a corridor through the tile. Like every edit, a tile change
  // needs exclusive access: no query may be running on the mesh in any thread.

  /// Builds a tiled mesh from `tiles` (each at most once, inside the grid; tiles without
  /// polygons are left empty). Each tile's geometry is checked and repaired as build() does
  /// (LoadError naming the tile for fatal input such as a non-finite vertex); tiles are joined
  /// where their polygons share a border stretch (vertices at the same x-z point within
  /// grid.border_climb in height are one, and border edges are split at the vertices across,
  /// as the tiled Recast build stitches its tiles). Throws std::invalid_argument for a bad grid,
  /// a tile outside it or given twice, or polygons outside their tile's square, and
  /// std::length_error for a tile with more than grid.max_polygons_per_tile polygons.
  static NavMesh build_tiled(const NavMeshTileGrid& grid, std::span<const NavMeshTile> tiles,
                             const NavMeshBuildOptions& options = {});
  /// The same with off-mesh links (what a baked file of a tiled mesh holds): each is placed as
  /// add_off_mesh_link places it, in order (ids 0, 1, ...), and a link with an end on no tile is
  /// kept detached, as replace_tile leaves it (off_mesh_link_attached). The mesh is at revision 0.
  /// Throws as the form without links does, and std::invalid_argument naming the link for a
  /// non-finite point, a negative or non-finite cost or radius, or an area of max_areas or more.
  static NavMesh build_tiled(const NavMeshTileGrid& grid, std::span<const NavMeshTile> tiles,
                             std::span<const OffMeshLink> links, const NavMeshBuildOptions& options = {});
  /// Puts `tile_geometry` in tile (tile_x, tile_z), replacing what was there; geometry without
  /// polygons removes the tile. The tile's polygons keep their ids' range; the tile's salt
  /// changes (references into it become invalid); its tags come from the geometry, while the
  /// other tiles keep theirs, edits included. Off-mesh links are placed again: a link whose end
  /// has no polygon under it any more is detached (kept, taken by no search; see
  /// off_mesh_link_attached) until a tile under it returns. One edit: revision() goes up by one.
  /// Throws, changing nothing, on a mesh not built with build_tiled (std::logic_error), for a
  /// tile outside the grid (std::out_of_range), and for geometry build_tiled refuses.
  void replace_tile(int tile_x, int tile_z, const MeshGeometry& tile_geometry);
  void replace_tile(const NavMeshTile& tile) { replace_tile(tile.tile_x, tile.tile_z, tile.geometry); }
  void remove_tile(int tile_x, int tile_z) { replace_tile(tile_x, tile_z, MeshGeometry{}); }
  [[nodiscard]] bool is_tiled() const { return !tiles_.empty(); }
  /// The grid of a tiled mesh (a 1 x 1 grid of the whole mesh otherwise).
  [[nodiscard]] const NavMeshTileGrid& tile_grid() const { return tile_grid_; }
  /// The tiles that hold polygons, in tile order (z, then x).
  [[nodiscard]] std::vector<NavMeshTileInfo> tiles() const;
  /// The geometry tile (tile_x, tile_z) was last given, repaired (convex polygons) and with its
  /// polygons' current areas and flags: what replace_tile takes back. Throws std::out_of_range
  /// outside the grid and std::logic_error on a mesh not built with build_tiled.
  [[nodiscard]] MeshGeometry tile_geometry(int tile_x, int tile_z) const;
  /// Incremented by every tile change (never reset, not even by forget_changes): what caches
  /// of the geometry (an ExactPathSearch's tables) compare to know they are stale.
  [[nodiscard]] std::uint64_t geometry_revision() const { return geometry_revision_; }
  /// A stable reference to a polygon of a tiled mesh (for an untiled mesh, tile 0 with salt 1).
  /// The polygon must be one in use (below polygon_count() and not an empty slot); otherwise the
  /// reference returned is invalid.
  [[nodiscard]] PolygonRef polygon_ref(PolygonId polygon) const;
  /// True while the referenced polygon's tile has not changed since the reference was made.
  [[nodiscard]] bool is_valid(const PolygonRef& ref) const;
  /// The polygon a valid reference names, or invalid_polygon.
  [[nodiscard]] PolygonId polygon_of(const PolygonRef& ref) const;
  /// False for a link of a tiled mesh whose end lies on a removed tile (it is taken by no search).
  [[nodiscard]] bool off_mesh_link_attached(OffMeshLinkId link) const {
    return links_[link].start_polygon != invalid_node && links_[link].end_polygon != invalid_node;
  }

  [[nodiscard]] std::size_t vertex_count() const { return vertices_.size(); }
  [[nodiscard]] std::size_t polygon_count() const { return polygon_starts_.size() - 1; }
  /// Incremented by every edit that changes a polygon's area or flags, and by every
  /// add_off_mesh_link; 0 for a mesh nobody
  /// edited since it was built or since forget_changes(). Query objects watch it: a stepped
  /// search on an edited mesh ends with SearchStatus::world_changed.
  [[nodiscard]] std::uint64_t revision() const { return changes_.revision(); }
  /// The connected regions of the polygons in use (see region()); a tiled mesh's unused ids
  /// count for none.
  [[nodiscard]] std::size_t region_count() const { return region_count_; }
  [[nodiscard]] const Bounds& bounds() const { return bounds_; }
  [[nodiscard]] const std::vector<MeshProblem>& problems() const { return problems_; }
  [[nodiscard]] const std::string& source() const { return source_; }

  [[nodiscard]] const Point& vertex(std::uint32_t index) const { return vertices_[index]; }
  [[nodiscard]] std::span<const Point> vertices() const { return vertices_; }
  /// The polygon's vertex indices, counter-clockwise seen from above.
  [[nodiscard]] std::span<const std::uint32_t> polygon_vertices(PolygonId polygon) const {
    return {polygon_indices_.data() + polygon_starts_[polygon], polygon_starts_[polygon + 1] - polygon_starts_[polygon]};
  }
  /// Neighbour across each edge (edge j runs from vertex j to vertex j + 1), or invalid_polygon.
  [[nodiscard]] std::span<const PolygonId> polygon_neighbours(PolygonId polygon) const {
    return {neighbours_.data() + polygon_starts_[polygon], polygon_starts_[polygon + 1] - polygon_starts_[polygon]};
  }
  /// Edges joining two polygons, numbered 0 .. shared_edge_count() - 1.
  [[nodiscard]] std::size_t shared_edge_count() const { return shared_edges_.size(); }
  struct SharedEdge {
    std::uint32_t vertex_a, vertex_b;  ///< as polygon_a walks it (a then b)
    PolygonId polygon_a, polygon_b;
  };
  [[nodiscard]] const SharedEdge& shared_edge(std::uint32_t index) const { return shared_edges_[index]; }

  /// The connected region of a polygon: polygons joined by shared edges or by off-mesh links
  /// (one-way links counted both ways) share one. Different regions mean no path. Regions are
  /// numbered 0 .. region_count() - 1; an unused id of a tiled mesh's tile (an empty polygon)
  /// is in none: invalid_node.
  [[nodiscard]] std::uint32_t region(PolygonId polygon) const { return regions_[polygon]; }

  [[nodiscard]] const Point& centroid(PolygonId polygon) const { return centroids_[polygon]; }

  // ---- Areas and flags. Each polygon has an area (what the ground is; 0 by default) and flags
  // (what it allows; none by default), given by MeshGeometry::polygon_areas / polygon_flags (a
  // polygon split from a concave input keeps its input's) or set here. A query's AreaFilter
  // prices areas and includes or excludes flags (NavMeshSearchOptions::filter). The readers
  // (accessors below) take a polygon id below polygon_count() unchecked, as the other
  // per-polygon accessors do.

  [[nodiscard]] AreaId area(PolygonId polygon) const { return tags_[polygon].area; }
  [[nodiscard]] AreaFlags flags(PolygonId polygon) const { return tags_[polygon].flags; }
  /// Bit a is set when some polygon has area a: with flags_in_use(), what an AreaFilter needs
  /// to tell whether it changes anything here (AreaFilter::neutral_for) and the smallest cost a
  /// search can meet (AreaFilter::smallest_cost). Off-mesh links' areas count too. Kept up to
  /// date by every edit, O(1) to read.
  [[nodiscard]] std::uint64_t areas_in_use() const { return areas_in_use_ | link_areas_in_use_; }
  /// The union of every polygon's and every off-mesh link's flags.
  [[nodiscard]] AreaFlags flags_in_use() const { return static_cast<AreaFlags>(flags_in_use_ | link_flags_in_use_); }

  // ---- Off-mesh links (off_mesh_link.hpp; Detour's off-mesh connections). Ids are 0 ..
  // off_mesh_link_count() - 1, in the order the links were given and added.

  [[nodiscard]] std::size_t off_mesh_link_count() const { return links_.size(); }
  /// The link with this id (unchecked, as the per-polygon readers are).
  [[nodiscard]] const PlacedOffMeshLink& off_mesh_link(OffMeshLinkId link) const { return links_[link]; }
  /// The links an agent can take from `polygon`, as directed link ids (2 * link for start to
  /// end, 2 * link + 1 for end to start on a two-way link); empty on a mesh without links.
  [[nodiscard]] std::span<const std::uint32_t> links_leaving(PolygonId polygon) const {
    if (link_exit_starts_.empty()) return {};
    return {link_exits_.data() + link_exit_starts_[polygon], link_exit_starts_[polygon + 1] - link_exit_starts_[polygon]};
  }
  /// Adds a link after building: places its ends (as build does), then recomputes what depends
  /// on connectivity (regions, bridges). Returns its id. Counts as an edit: revision() goes up by
  /// one (a stepped search ends with world_changed) and nothing is logged (no polygon changed,
  /// so no planned corridor breaks). Throws std::invalid_argument, changing nothing, for an end
  /// that is not on the mesh within the link's radius, a non-finite point, a negative or
  /// non-finite cost or radius, or an area of max_areas or more. Needs exclusive access.
  OffMeshLinkId add_off_mesh_link(const OffMeshLink& link);

  // ---- Editing. Every edit that changes at least one polygon increments revision() once and
  // logs the polygons it changed, with their area and flags before; an edit that changes
  // nothing leaves both alone. Geometry is never edited. Edits need exclusive access: no query
  // may be searching this mesh, in any thread (as for GridMap; docs/changing-worlds.md). A
  // stepped search notices an edit made between its steps (SearchStatus::world_changed).
  // A polygon id >= polygon_count() (or an unused id of a tiled mesh's tile) throws
  // std::out_of_range and an area >= max_areas
  // std::invalid_argument, and then nothing is changed.

  void set_area(PolygonId polygon, AreaId area);
  void set_flags(PolygonId polygon, AreaFlags flags);
  /// Both at once, as one edit.
  void set_area_and_flags(PolygonId polygon, AreaId area, AreaFlags flags);
  /// The same for many polygons, as one edit (one revision): a room's floor, every door of a
  /// building. Every id is checked before anything changes.
  void set_area(std::span<const PolygonId> polygons, AreaId area);
  void set_flags(std::span<const PolygonId> polygons, AreaFlags flags);

  /// The polygons changed by the edits after `revision`, oldest first (a polygon edited twice
  /// is listed twice), or nullopt when the log does not reach back that far (more than
  /// change_log_limit polygons were edited since, or the revision is not one this mesh had):
  /// check or plan from scratch then. The span is valid until the next edit.
  [[nodiscard]] std::optional<std::span<const NavMeshPolygonChange>> changes_since(std::uint64_t revision) const {
    return changes_.since(revision);
  }
  /// The log keeps the latest this many polygon changes (older ones are dropped in halves).
  static constexpr std::size_t change_log_limit = ChangeLog<NavMeshPolygonChange>::limit;
  /// Empties the change log and restarts the revision at 0 (a game that sets up areas after
  /// building calls this, so that setting up is not history). Never call it while a query is
  /// stepping on the mesh.
  void forget_changes() { changes_.clear(); }
  /// The input polygon (index in MeshGeometry::polygons) this polygon was made from: they differ
  /// only when concave inputs were split or degenerate ones dropped.
  [[nodiscard]] std::uint32_t source_polygon(PolygonId polygon) const { return source_polygons_[polygon]; }

  /// True if (x, z) lies inside or on the boundary of the polygon, seen from above.
  [[nodiscard]] bool contains_xz(PolygonId polygon, double x, double z) const;
  /// The ground height of the polygon at (x, z); (x, z) should lie inside it. With detail
  /// heights (has_detail_heights), interpolated over the detail triangle under the point; else
  /// over the polygon's own vertices (its fan of triangles from vertex 0).
  [[nodiscard]] double height_at(PolygonId polygon, double x, double z) const;
  /// True when the mesh was built with detail heights (MeshGeometry::detail_triangles, as a
  /// navmesh built from level geometry has): point location, nearest points and path
  /// waypoints then sit on the level's ground, not on the coarse polygons.
  [[nodiscard]] bool has_detail_heights() const { return !detail_starts_.empty(); }

  /// The polygon under or over `point` that reaches it in height (the one whose surface is
  /// nearest in height when several do, as on multi-level meshes; the lowest id on a tie), with
  /// the point moved onto its surface. With detail heights a polygon reaches `height_tolerance`
  /// above and below its ground; without them (an OBJ of polygons, a Polyanya mesh) from its
  /// lowest corner minus the tolerance to its highest plus the tolerance, as Detour's
  /// findNearestPoly reaches with half-extents (2, tolerance, 2), since the flat polygon only
  /// approximates the ground. Invalid if none, or if the point is not finite or the tolerance is
  /// negative or NaN. See default_height_tolerance for the choice of 4.
  [[nodiscard]] MeshLocation locate(const Point& point, double height_tolerance = default_height_tolerance) const;
  /// The same among the polygons `filter` lets in (AreaFilter::passes), as Detour's
  /// findNearestPoly takes a dtQueryFilter: a point on the edge between a closed door and the
  /// floor beside it stands on the floor.
  [[nodiscard]] MeshLocation locate(const Point& point, double height_tolerance, const AreaFilter& filter) const;

  /// The closest point on the mesh (3D distance) within `max_distance`, with its polygon; a
  /// point on the mesh comes back unchanged in x and z. Invalid if nothing is that close.
  [[nodiscard]] MeshLocation nearest_point(const Point& point, double max_distance) const;

 private:
  NavMesh() = default;
  // The searches read the bookkeeping below through src/navmesh/search_tables.hpp.
  friend class SearchTables;
  // The checks and build shared by build() and build_tiled(); with `keep_empty_polygons`, an
  // input polygon without vertices stays as an empty polygon (a tile's unused id).
  static NavMesh build_checked(const MeshGeometry& geometry, const NavMeshBuildOptions& options,
                               bool keep_empty_polygons);
  // Tiles (nav_mesh_tiles.cpp): every tile's geometry joined into one, one polygon per id.
  [[nodiscard]] MeshGeometry assemble_tiles() const;
  // The joined arrays made again from the tiles; `changed_tile` (an index into tiles_) is the
  // only tile changed since they were last made, if that is known.
  void rebuild_from_tiles(std::optional<std::size_t> changed_tile);
  [[nodiscard]] std::vector<std::uint32_t> polygons_around_tile(std::size_t index, int radius) const;
  [[nodiscard]] bool is_empty_polygon(PolygonId polygon) const {
    return polygon_starts_[polygon] == polygon_starts_[polygon + 1];
  }
  void build_adjacency();
  void build_regions();
  void find_bridges();
  // Off-mesh links (off_mesh_links.cpp): place one (an error message instead when it cannot be),
  // and index every link by the polygons it leaves.
  std::optional<PlacedOffMeshLink> place_link(const OffMeshLink& link, std::string& problem) const;
  // What is wrong with a link's own values (points, radius, cost, area), wherever it goes.
  static std::optional<std::string> link_value_problem(const OffMeshLink& link);
  void index_links();
  void build_locator(double cell_size);
  template <class Visit>
  void for_each_polygon_near(double min_x, double min_z, double max_x, double max_z, Visit&& visit) const;
  template <class Accept>
  MeshLocation locate_where(const Point& point, double height_tolerance, Accept&& accept) const;
  PolygonId checked_polygon(PolygonId polygon) const;
  static AreaId checked_area(AreaId area);
  // Changes one polygon's tags as part of the edit under way (logged, counts kept); true if
  // anything changed.
  bool retag(PolygonId polygon, AreaId area, AreaFlags flags);
  void count_tags();
  void adopt_detail_heights(const MeshGeometry& geometry);

  std::string source_;
  std::vector<Point> vertices_;
  std::vector<std::uint32_t> polygon_starts_{0};  ///< polygon i uses polygon_indices_[starts[i] .. starts[i+1])
  std::vector<std::uint32_t> polygon_indices_;
  std::vector<PolygonId> neighbours_;         ///< per edge slot
  std::vector<SharedEdge> shared_edges_;
  std::vector<std::uint32_t> regions_;
  std::size_t region_count_ = 0;
  std::vector<Point> centroids_;
  std::vector<Bounds> polygon_bounds_;
  std::vector<std::uint32_t> source_polygons_;
  // Per polygon, side by side because a filtered search reads both for every polygon it enters.
  struct PolygonTags {
    AreaId area = 0;
    AreaFlags flags = 0;
  };
  std::vector<PolygonTags> tags_;
  std::array<std::uint32_t, max_areas> polygons_per_area_{};
  std::array<std::uint32_t, 16> polygons_per_flag_{};  ///< per flag bit
  std::uint64_t areas_in_use_ = 1;                      ///< every polygon starts in area 0
  AreaFlags flags_in_use_ = 0;
  ChangeLog<NavMeshPolygonChange> changes_;
  std::vector<MeshProblem> problems_;
  // Detail heights (see MeshGeometry::detail_triangles), per input polygon: a polygon split
  // from a concave input reads its input's triangles. Empty when the mesh has none.
  std::vector<Point> detail_vertices_;
  std::vector<std::array<std::uint32_t, 3>> detail_triangles_;
  std::vector<std::uint32_t> detail_starts_;
  Bounds bounds_;
  /// How far outside a polygon (x-z, world units) a point may be and still count as on it.
  double xz_margin_ = 1e-9;

  // Off-mesh links, placed, and per polygon the directed links leaving it (CSR; both empty
  // without links); their areas and flags, which areas_in_use() and flags_in_use() add in.
  std::vector<PlacedOffMeshLink> links_;
  std::vector<std::uint32_t> link_exit_starts_;
  std::vector<std::uint32_t> link_exits_;
  std::uint64_t link_areas_in_use_ = 0;
  AreaFlags link_flags_in_use_ = 0;

  // Point location: a uniform grid over x-z; each cell lists the polygons whose bounding box
  // touches it.
  double locator_origin_x_ = 0.0, locator_origin_z_ = 0.0, locator_inverse_cell_ = 1.0;
  std::uint32_t locator_columns_ = 1, locator_rows_ = 1;
  std::vector<std::uint32_t> locator_starts_;
  std::vector<PolygonId> locator_polygons_;

  // ---- Search bookkeeping: what only the searches read (search_tables.hpp), derived from the
  // geometry and links above and rebuilt with them.
  std::vector<std::uint32_t> slot_shared_edge_;  ///< per edge slot: its shared edge, or invalid_node
  // Bridges of the polygon adjacency: per shared edge, the polygon on the far side of the edge
  // in a depth-first search tree when the edge is a bridge (else invalid), and each polygon's
  // entry and exit times in that search (a polygon's subtree is the times in between).
  struct Bridges {
    std::vector<PolygonId> children;
    std::vector<std::uint32_t> enter;
    std::vector<std::uint32_t> exit;
  };
  Bridges bridges_;
  // The corridor search's edge points; built once from the geometry and never changed, so
  // copies of the mesh share it.
  std::shared_ptr<const EdgePointGraph> edge_point_graph_;

  // ---- Tiles (empty for a mesh not built with build_tiled). Each tile keeps the geometry it
  // was given, repaired: the mesh's arrays above are re-derived from them on a change.
  struct StoredTile {
    MeshGeometry geometry;    ///< convex polygons, one per id of the tile's range; none: no tile
    std::uint32_t salt = 1;   ///< changed by every replace_tile
  };
  NavMeshTileGrid tile_grid_;
  std::vector<StoredTile> tiles_;
  NavMeshBuildOptions build_options_;
  std::uint64_t geometry_revision_ = 0;
};

}  // namespace wayfinder
