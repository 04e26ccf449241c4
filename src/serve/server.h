// `ferry serve OUT`: the correction workbench's HTTP server (cpp-httplib) on 127.0.0.1.
//
// Routes (every one needs the token: `?token=`, the `X-Ferry-Token` header, or the cookie the
// first URL sets; anything else gets 401; writes — every method but GET/HEAD — need the header,
// so a page of another site cannot make the browser write with the cookie alone):
//   GET  /                      the single-page workbench (web/), the token in a <meta>
//   GET  /app.js, /app.css      its bundle
//   GET  /docs/diagnostics.md   docs/diagnostics.md as HTML, one anchor per code
//   GET  /api/project           the tree, per-file status, counts, rounds, verify summary
//   GET  /api/file?path=REL     a file of OUT, as it is (ETag = its content hash)
//   PUT  /api/file?path=REL     save; header X-Ferry-Base-Hash (or If-Match) names the hash edited;
//                               409 when the file changed on disk since (nothing overwritten)
//   GET  /api/original?path=REL the file's original in the input tree (read-only)
//   GET  /api/view?path=REL     current + original text, diagnostics, verify, conflicts, fixes
//   POST /api/fix?path=REL&id=ID apply one safe fix (X-Ferry-Base-Hash as for a save)
//   POST /api/jobs              {"kind":"verify","path":REL|null} or {"kind":"round"}; 429 when full
//   GET  /api/jobs[?since=V]    the jobs; with `since`, waits (up to 25 s) for a change
//   GET  /api/jobs/ID           one job with its result
//   POST /api/jobs/ID/cancel
//   GET  /api/report?format=html|json|sarif[&download=1]  the report of the latest round
// Paths: see serve/safe_fs.h (403 for `..`, absolute paths, symlinks, .ferry/). Bodies above
// max_body bytes get 413. When bound to loopback, a Host header naming another host gets 403
// (DNS rebinding).
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "analysis/profile.h"
#include "serve/actions.h"

namespace ferry::serve {

struct ServeOptions {
  std::filesystem::path out;
  std::string host = "127.0.0.1";
  int port = 0;  // 0: any free port
  VerifySettings verify;
  unsigned migrate_jobs = 1;
  std::size_t max_body = 8u << 20;  // bytes of a request body, and of a file opened or saved
  std::size_t max_jobs = 4;         // queued + running
  std::string token;                // empty: a random one
};

// A url-safe random token of `bytes` random bytes (base64url without padding).
[[nodiscard]] std::string random_token(std::size_t bytes = 24);

// True when `host` (as given to --host) is a loopback address.
[[nodiscard]] bool is_loopback(const std::string& host);

// docs/diagnostics.md as a standalone HTML page: headings carry the anchors report::heading_anchor
// computes (the ones SARIF helpUri and the workbench link to), code blocks and inline code kept.
[[nodiscard]] std::string markdown_page(std::string_view markdown, std::string_view title);

class Server {
 public:
  // Opens OUT, binds the port (throws std::runtime_error when it cannot).
  explicit Server(ServeOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  [[nodiscard]] int port() const;
  [[nodiscard]] const std::string& token() const;
  // "http://127.0.0.1:PORT/?token=TOKEN"
  [[nodiscard]] std::string url() const;

  // Serves until stop() (from another thread or a signal watcher).
  void run();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ferry::serve
