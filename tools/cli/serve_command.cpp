#include "serve_command.hpp"

#include <charconv>
#include <exception>
#include <string>
#include <system_error>

#include "command_line_values.hpp"
#include "exit_status.hpp"

#ifdef WAYFINDER_HAVE_VIEWER
#include "common/room_map_generator.hpp"
#include "viewer/viewer_server.hpp"
#include "viewer/world_catalog.hpp"
#endif

namespace wayfinder::cli {

namespace {

// CLI::Range would say "Value 65536 not in range [0 - 65535]"; this says what the number is for.
const CLI::Validator tcp_port(
    [](std::string& text) {
      int port = -1;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
      if (error == std::errc{} && end == text.data() + text.size() && port >= 0 && port <= 65535) return std::string();
      return text + " is not a TCP port (0 to 65535; 0 picks a free one)";
    },
    "PORT");

}  // namespace

void configure_serve_command(CLI::App& command, ServeArguments& arguments) {
  command.add_option("FILES", arguments.files, "worlds to open: .map, .obj, .mesh, .wfnav, .vox or .3dmap files")
      ->type_name("FILE");
  command.add_option("--port", arguments.port, "TCP port (0: any free port)")->check(tcp_port);
  command.add_option("--host", arguments.host,
                     "address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 opens it to the network)");
  add_whole_number_option(command, "--threads", arguments.threads, 1, 256, "worker threads answering requests")
      ->default_str(std::to_string(arguments.threads));
}

int run_serve_command(const ServeArguments& arguments, std::ostream& out, std::ostream& err) {
#ifdef WAYFINDER_HAVE_VIEWER
  viewer::WorldCatalog catalog;
  for (const std::string& file : arguments.files) {
    const int id = viewer::load_world_file(catalog, file);
    out << "world " << id << ": " << file << "\n";
  }
  if (arguments.files.empty()) {
    catalog.add("rooms (generated)", generate_room_map().map);
    out << "world 1: a generated grid of rooms (name world files to open them instead)\n";
  }
  viewer::ServerOptions options;
  options.host = arguments.host;
  options.port = arguments.port;
  options.threads = static_cast<int>(arguments.threads);  // 1 to 256
  viewer::ViewerServer server(catalog, options);
  try {
    server.bind();
  } catch (const std::exception& error) {
    err << "wayfinder: " << error.what() << "\n";
    return exit_bad_input;
  }
  out << "Wayfinder viewer: " << server.url() << " (Ctrl-C stops it)" << std::endl;
  server.run();
  return exit_ok;
#else
  (void)arguments;
  (void)out;
  err << "wayfinder: this build has no web viewer (cpp-httplib was not found when it was configured; "
         "install libcpp-httplib-dev and rebuild)\n";
  return exit_bad_input;
#endif
}

}  // namespace wayfinder::cli
