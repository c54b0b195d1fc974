#include "wayfinder/voxel/vox_io.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstring>
#include <map>
#include <optional>
#include <system_error>
#include <vector>

#include "wayfinder/core/load_error.hpp"
#include "core/text_file.hpp"

namespace wayfinder {

namespace {

constexpr std::int64_t max_model_side = 1024;
constexpr std::int64_t max_translation = std::int64_t{1} << 20;
constexpr std::size_t max_placed_shapes = 65536;
constexpr int max_scene_depth = 64;
// Groups may share children, so a small file could describe a graph with exponentially many
// paths from the root; walking stops after this many node visits.
constexpr std::size_t max_scene_visits = std::size_t{1} << 20;
// Shared groups also let a small file place one model many times: 65,536 placements of a model
// of 4,000 voxels (an 18 KiB file) are 262 million voxels to write. The scene is refused before
// any is written when its placements hold more voxels than this.
constexpr std::size_t max_placed_voxels = std::size_t{1} << 25;

struct Model {
  std::int64_t size[3] = {0, 0, 0};
  std::vector<std::uint8_t> colours;
  std::vector<std::array<std::int32_t, 3>> positions;
};

struct SceneNode {
  enum class Kind { transform, group, shape } kind = Kind::transform;
  std::size_t offset = 0;          ///< where the chunk starts, for messages
  std::int64_t translation[3] = {0, 0, 0};
  std::vector<std::int32_t> children;  ///< transform: one child; group: its children
  std::vector<std::int32_t> models;    ///< shape: the models it shows
};

/// Reads little-endian values from a byte range, failing with the offset on overrun.
class ByteReader {
 public:
  ByteReader(std::string_view bytes, std::size_t begin, std::size_t end, const std::string& source)
      : bytes_(bytes), position_(begin), end_(end), source_(source) {}

  [[noreturn]] void fail(std::size_t offset, const std::string& cause) const {
    throw LoadError(source_, 0, 0, "byte " + std::to_string(offset) + ": " + cause);
  }
  [[noreturn]] void fail(const std::string& cause) const { fail(position_, cause); }

  [[nodiscard]] std::size_t position() const { return position_; }
  [[nodiscard]] std::size_t remaining() const { return end_ - position_; }

  std::int32_t int32(const char* what) {
    if (remaining() < 4) fail(std::string("truncated ") + what);
    std::uint32_t value = 0;
    for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(bytes_[position_ + static_cast<std::size_t>(i)]);
    position_ += 4;
    return static_cast<std::int32_t>(value);
  }
  std::string_view take(std::size_t count, const char* what) {
    if (remaining() < count) fail(std::string("truncated ") + what);
    const std::string_view piece = bytes_.substr(position_, count);
    position_ += count;
    return piece;
  }
  std::string_view string(const char* what) {
    const std::int32_t length = int32(what);
    if (length < 0 || static_cast<std::size_t>(length) > remaining())
      fail(position_ - 4, std::string(what) + " length " + std::to_string(length) + " does not fit its chunk");
    return take(static_cast<std::size_t>(length), what);
  }
  /// A DICT: key/value string pairs; returns the value of `wanted_key` if present.
  std::optional<std::string_view> dictionary(std::string_view wanted_key, std::string_view second_key,
                                             std::optional<std::string_view>* second_value = nullptr) {
    const std::size_t at = position_;
    const std::int32_t count = int32("dictionary");
    // Each pair takes at least 8 bytes, which caps a hostile count by the bytes left.
    if (count < 0 || static_cast<std::size_t>(count) > remaining() / 8)
      fail(at, "dictionary of " + std::to_string(count) + " entries does not fit its chunk");
    std::optional<std::string_view> found;
    for (std::int32_t i = 0; i < count; ++i) {
      const std::string_view key = string("dictionary key");
      const std::string_view value = string("dictionary value");
      if (key == wanted_key) found = value;
      if (second_value != nullptr && key == second_key) *second_value = value;
    }
    return found;
  }

 private:
  std::string_view bytes_;
  std::size_t position_;
  std::size_t end_;
  const std::string& source_;
};

std::string chunk_name(std::string_view id) {
  std::string name;
  for (const char c : id) name += (c >= 0x20 && c < 0x7F) ? c : '?';
  return "'" + name + "'";
}

/// Parses "x y z" integers of a translation.
bool parse_translation(std::string_view text, std::int64_t out[3]) {
  for (int axis = 0; axis < 3; ++axis) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    if (text.empty()) return false;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out[axis]);
    if (error != std::errc{} || out[axis] < -max_translation || out[axis] > max_translation) return false;
    text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  }
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  return text.empty();
}

struct Placement {
  std::size_t model = 0;
  std::int64_t corner[3] = {0, 0, 0};  ///< file coordinates of the model's voxel (0, 0, 0)
};

class SceneWalker {
 public:
  SceneWalker(const std::map<std::int32_t, SceneNode>& nodes, const std::vector<Model>& models, const ByteReader& reader)
      : nodes_(nodes), models_(models), reader_(reader) {}

  void visit(std::int32_t id, const std::int64_t translation[3], int depth, std::size_t referenced_at) {
    const auto found = nodes_.find(id);
    if (found == nodes_.end()) reader_.fail(referenced_at, "scene node " + std::to_string(id) + " does not exist");
    const SceneNode& node = found->second;
    if (++visits_ > max_scene_visits)
      reader_.fail(node.offset, "the scene graph has more than " + std::to_string(max_scene_visits) + " node visits");
    if (depth > max_scene_depth) reader_.fail(node.offset, "the scene graph is deeper than " + std::to_string(max_scene_depth) +
                                                               " levels (or has a cycle)");
    std::int64_t total[3] = {translation[0], translation[1], translation[2]};
    if (node.kind == SceneNode::Kind::transform)
      for (int axis = 0; axis < 3; ++axis) total[axis] += node.translation[axis];
    if (node.kind == SceneNode::Kind::shape) {
      for (const std::int32_t model : node.models) {
        if (model < 0 || static_cast<std::size_t>(model) >= models_.size())
          reader_.fail(node.offset, "shape node refers to model " + std::to_string(model) + " of " +
                                        std::to_string(models_.size()));
        if (placements.size() >= max_placed_shapes)
          reader_.fail(node.offset, "the scene places more than " + std::to_string(max_placed_shapes) + " models");
        placed_voxels_ += models_[static_cast<std::size_t>(model)].positions.size();
        if (placed_voxels_ > max_placed_voxels)
          reader_.fail(node.offset, "the scene places more than " + std::to_string(max_placed_voxels) + " voxels (" +
                                        std::to_string(placements.size() + 1) + " models placed so far)");
        Placement placement;
        placement.model = static_cast<std::size_t>(model);
        for (int axis = 0; axis < 3; ++axis)
          placement.corner[axis] = total[axis] - models_[placement.model].size[axis] / 2;
        placements.push_back(placement);
      }
      return;
    }
    for (const std::int32_t child : node.children) visit(child, total, depth + 1, node.offset);
  }

  std::vector<Placement> placements;

 private:
  const std::map<std::int32_t, SceneNode>& nodes_;
  const std::vector<Model>& models_;
  const ByteReader& reader_;
  std::size_t visits_ = 0;
  std::size_t placed_voxels_ = 0;
};

}  // namespace

std::array<VoxColour, 256> default_vox_palette() {
  std::array<VoxColour, 256> palette{};
  constexpr std::uint8_t levels[] = {0xff, 0xcc, 0x99, 0x66, 0x33, 0x00};
  constexpr std::uint8_t ramp[] = {0xee, 0xdd, 0xbb, 0xaa, 0x88, 0x77, 0x55, 0x44, 0x22, 0x11};
  std::size_t index = 1;
  for (const std::uint8_t r : levels)
    for (const std::uint8_t g : levels)
      for (const std::uint8_t b : levels)
        if ((r | g | b) != 0) palette[index++] = {r, g, b, 0xff};
  for (const std::uint8_t v : ramp) palette[index++] = {v, 0, 0, 0xff};
  for (const std::uint8_t v : ramp) palette[index++] = {0, v, 0, 0xff};
  for (const std::uint8_t v : ramp) palette[index++] = {0, 0, v, 0xff};
  for (const std::uint8_t v : ramp) palette[index++] = {v, v, v, 0xff};
  return palette;
}

VoxelWorld parse_vox(std::string_view bytes, const std::string& source_name, const VoxReadOptions& options,
                     VoxFileInfo* info) {
  ByteReader header(bytes, 0, bytes.size(), source_name);
  if (bytes.size() < 4 || bytes.substr(0, 4) != "VOX ")
    header.fail(0, "not a MagicaVoxel file: it does not start with 'VOX '");
  header.take(4, "header");
  const std::int32_t version = header.int32("version");
  if (version != 150 && version != 200)
    header.fail(4, "unsupported .vox version " + std::to_string(version) + " (150 and 200 are read)");
  const std::size_t main_at = header.position();
  const std::string_view main_id = header.take(4, "MAIN chunk");
  if (main_id != "MAIN") header.fail(main_at, "expected the MAIN chunk, found " + chunk_name(main_id));
  const std::int32_t main_content = header.int32("MAIN chunk");
  const std::int32_t main_children = header.int32("MAIN chunk");
  if (main_content < 0 || main_children < 0 ||
      static_cast<std::size_t>(main_content) + static_cast<std::size_t>(main_children) > header.remaining())
    header.fail(main_at, "MAIN chunk sizes " + std::to_string(main_content) + " + " + std::to_string(main_children) +
                             " do not fit the file's " + std::to_string(bytes.size()) + " bytes");
  const std::size_t children_begin = header.position() + static_cast<std::size_t>(main_content);
  ByteReader reader(bytes, children_begin, children_begin + static_cast<std::size_t>(main_children), source_name);

  std::vector<Model> models;
  std::map<std::int32_t, SceneNode> nodes;
  bool size_pending = false;
  while (reader.remaining() > 0) {
    const std::size_t chunk_at = reader.position();
    const std::string_view id = reader.take(4, "chunk header");
    const std::int32_t content = reader.int32("chunk header");
    const std::int32_t children = reader.int32("chunk header");
    if (content < 0 || children < 0 ||
        static_cast<std::size_t>(content) + static_cast<std::size_t>(children) > reader.remaining())
      reader.fail(chunk_at, "chunk " + chunk_name(id) + " sizes " + std::to_string(content) + " + " +
                                std::to_string(children) + " run past the end of the MAIN chunk");
    const std::size_t content_begin = reader.position();
    ByteReader body(bytes, content_begin, content_begin + static_cast<std::size_t>(content), source_name);
    reader.take(static_cast<std::size_t>(content) + static_cast<std::size_t>(children), "chunk");

    if (id == "SIZE") {
      if (size_pending) reader.fail(chunk_at, "SIZE chunk without the XYZI chunk of the previous model");
      Model model;
      for (int axis = 0; axis < 3; ++axis) {
        model.size[axis] = body.int32("SIZE chunk");
        if (model.size[axis] < 1 || model.size[axis] > max_model_side)
          reader.fail(chunk_at, "model size " + std::to_string(model.size[axis]) + " is outside 1.." +
                                    std::to_string(max_model_side));
      }
      models.push_back(std::move(model));
      size_pending = true;
    } else if (id == "XYZI") {
      if (!size_pending) reader.fail(chunk_at, "XYZI chunk without a SIZE chunk before it");
      size_pending = false;
      Model& model = models.back();
      const std::int32_t count = body.int32("XYZI chunk");
      if (count < 0 || static_cast<std::size_t>(count) > body.remaining() / 4)
        reader.fail(chunk_at, "XYZI chunk declares " + std::to_string(count) + " voxels but holds " +
                                  std::to_string(body.remaining() / 4));
      model.positions.reserve(static_cast<std::size_t>(count));
      model.colours.reserve(static_cast<std::size_t>(count));
      for (std::int32_t i = 0; i < count; ++i) {
        const std::size_t voxel_at = body.position();
        const std::string_view voxel = body.take(4, "voxel");
        std::array<std::int32_t, 3> position{};
        for (int axis = 0; axis < 3; ++axis) {
          position[static_cast<std::size_t>(axis)] = static_cast<unsigned char>(voxel[static_cast<std::size_t>(axis)]);
          if (position[static_cast<std::size_t>(axis)] >= model.size[axis])
            reader.fail(voxel_at, "voxel (" + std::to_string(static_cast<unsigned char>(voxel[0])) + "," +
                                      std::to_string(static_cast<unsigned char>(voxel[1])) + "," +
                                      std::to_string(static_cast<unsigned char>(voxel[2])) +
                                      ") is outside its model of size " + std::to_string(model.size[0]) + "x" +
                                      std::to_string(model.size[1]) + "x" + std::to_string(model.size[2]));
        }
        model.positions.push_back(position);
        model.colours.push_back(static_cast<std::uint8_t>(voxel[3]));
      }
    } else if (id == "RGBA") {
      // 256 entries of r, g, b, a; entry i is colour index i + 1 (the last entry is unused).
      if (content < 1024)
        reader.fail(chunk_at, "RGBA chunk holds " + std::to_string(content) + " bytes, expected 1024 (256 colours)");
      if (info != nullptr) {
        const std::string_view colours = body.take(1024, "RGBA chunk");
        for (std::size_t i = 1; i < 256; ++i) {
          const auto channel = [&](std::size_t k) { return static_cast<std::uint8_t>(colours[(i - 1) * 4 + k]); };
          info->palette[i] = {channel(0), channel(1), channel(2), channel(3)};
        }
        info->palette_from_file = true;
      }
    } else if (id == "nTRN" || id == "nGRP" || id == "nSHP") {
      SceneNode node;
      node.offset = chunk_at;
      const std::int32_t node_id = body.int32("scene node");
      body.dictionary("", "");  // node attributes (name, hidden): not needed
      if (id == "nTRN") {
        node.kind = SceneNode::Kind::transform;
        node.children.push_back(body.int32("transform child"));
        body.int32("transform");  // reserved
        body.int32("transform");  // layer
        const std::int32_t frames = body.int32("transform frames");
        if (frames < 0 || static_cast<std::size_t>(frames) > body.remaining() / 4)
          reader.fail(chunk_at, "transform declares " + std::to_string(frames) + " frames");
        for (std::int32_t frame = 0; frame < frames; ++frame) {
          const std::size_t frame_at = body.position();
          std::optional<std::string_view> rotation;
          const std::optional<std::string_view> translation = body.dictionary("_t", "_r", &rotation);
          if (frame != 0) continue;  // animation frames after the first are not placed
          if (translation && !parse_translation(*translation, node.translation))
            reader.fail(frame_at, "bad translation '" + std::string(translation->substr(0, 40)) + "'");
          // "4" encodes the identity matrix: row 0 has its 1 in column 0, row 1 in column 1.
          if (rotation && *rotation != "4")
            reader.fail(frame_at, "rotated models are not supported (rotation " + std::string(rotation->substr(0, 8)) + ")");
        }
      } else if (id == "nGRP") {
        node.kind = SceneNode::Kind::group;
        const std::int32_t count = body.int32("group");
        if (count < 0 || static_cast<std::size_t>(count) > body.remaining() / 4)
          reader.fail(chunk_at, "group declares " + std::to_string(count) + " children");
        for (std::int32_t i = 0; i < count; ++i) node.children.push_back(body.int32("group child"));
      } else {
        node.kind = SceneNode::Kind::shape;
        const std::int32_t count = body.int32("shape");
        if (count < 0 || static_cast<std::size_t>(count) > body.remaining() / 8)
          reader.fail(chunk_at, "shape declares " + std::to_string(count) + " models");
        for (std::int32_t i = 0; i < count; ++i) {
          node.models.push_back(body.int32("shape model"));
          body.dictionary("", "");
        }
      }
      if (!nodes.emplace(node_id, std::move(node)).second)
        reader.fail(chunk_at, "scene node " + std::to_string(node_id) + " is defined twice");
    }
    // Every other chunk (PACK, MATL, LAYR, rOBJ, rCAM, NOTE, IMAP, ...) is skipped.
  }
  if (size_pending) reader.fail(reader.position(), "the last SIZE chunk has no XYZI chunk");
  if (models.empty()) reader.fail(reader.position(), "the file has no models");

  std::vector<Placement> placements;
  if (nodes.empty()) {
    for (std::size_t m = 0; m < models.size(); ++m) placements.push_back({m, {0, 0, 0}});
  } else {
    SceneWalker walker(nodes, models, reader);
    const std::int64_t origin[3] = {0, 0, 0};
    walker.visit(0, origin, 0, children_begin);
    placements = std::move(walker.placements);
    if (placements.empty()) reader.fail(children_begin, "the scene graph places no model");
  }

  std::int64_t low[3] = {LLONG_MAX, LLONG_MAX, LLONG_MAX};
  std::int64_t high[3] = {LLONG_MIN, LLONG_MIN, LLONG_MIN};
  for (const Placement& placement : placements)
    for (int axis = 0; axis < 3; ++axis) {
      low[axis] = std::min(low[axis], placement.corner[axis]);
      high[axis] = std::max(high[axis], placement.corner[axis] + models[placement.model].size[axis]);
    }
  // File (x, y, z) with z up becomes world (x, z, y) with y up.
  const std::int64_t size_x = high[0] - low[0];
  const std::int64_t size_y = high[2] - low[2];
  const std::int64_t size_z = high[1] - low[1];
  if (const std::optional<std::string> problem = VoxelWorld::size_problem(size_x, size_y, size_z))
    reader.fail(children_begin, "the assembled scene is too large: " + *problem);
  VoxelWorld world(static_cast<int>(size_x), static_cast<int>(size_y), static_cast<int>(size_z));
  if (info != nullptr) {
    info->model_count = models.size();
    info->placed_models = placements.size();
    info->voxel_counts.fill(0);
  }
  for (const Placement& placement : placements) {
    const Model& model = models[placement.model];
    if (info != nullptr)
      for (const std::uint8_t colour : model.colours)
        if (colour != 0) ++info->voxel_counts[colour];  // index 0 is empty: not a voxel
    for (std::size_t i = 0; i < model.positions.size(); ++i) {
      const BlockKind kind = options.kinds[model.colours[i]];
      const auto& p = model.positions[i];
      world.set_block(static_cast<int>(placement.corner[0] + p[0] - low[0]),
                      static_cast<int>(placement.corner[2] + p[2] - low[2]),
                      static_cast<int>(placement.corner[1] + p[1] - low[1]), kind);
    }
  }
  world.forget_changes();  // a world read from a file starts at revision 0
  return world;
}

VoxelWorld read_vox_file(const std::filesystem::path& path, const VoxReadOptions& options, VoxFileInfo* info) {
  return parse_vox(read_text_file(path), path.string(), options, info);
}

}  // namespace wayfinder
