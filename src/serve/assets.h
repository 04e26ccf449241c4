// The files the workbench serves from memory: the front end bundled from web/ at build time
// (index.html, app.js, app.css; see web/build.mjs) and docs/diagnostics.md. They are compiled into
// the binary (cmake/embed_files.cmake writes the table), so `ferry serve` needs no files beside it.
// A build without npm gets a one-page stand-in index.html that says so.
#pragma once

#include <span>
#include <string_view>

namespace ferry::serve {

struct Asset {
  std::string_view name;          // "index.html", "app.js", "diagnostics.md"
  std::string_view content_type;  // "text/html; charset=utf-8"
  std::string_view data;
};

// Defined in the generated embedded_web.cpp.
[[nodiscard]] std::span<const Asset> web_assets();

// The asset named `name`, or nullptr.
[[nodiscard]] const Asset* find_asset(std::string_view name);

}  // namespace ferry::serve
