#include "serve/server.h"

#include <arpa/inet.h>
#include <sys/random.h>

#include <httplib.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <sstream>
#include <thread>

#include "analysis/hazards.h"
#include "migrate/migrate_tree.h"
#include "report/bundle.h"
#include "report/html.h"
#include "report/sarif.h"
#include "serve/assets.h"
#include "verify/plan.h"

namespace fs = std::filesystem;

namespace ferry::serve {

const Asset* find_asset(std::string_view name) {
  for (const Asset& a : web_assets())
    if (a.name == name) return &a;
  return nullptr;
}

std::string random_token(std::size_t bytes) {
  std::string raw(bytes, '\0');
  std::size_t got = 0;
  while (got < bytes) {
    const ssize_t n = ::getrandom(raw.data() + got, bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(std::string("getrandom: ") + std::strerror(errno));
    got += static_cast<std::size_t>(n);
  }
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  unsigned acc = 0;
  int bits = 0;
  for (const unsigned char c : raw) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += kAlphabet[(acc >> bits) & 63];
    }
  }
  if (bits > 0) out += kAlphabet[(acc << (6 - bits)) & 63];
  return out;
}

bool is_loopback(const std::string& host) {
  if (host == "localhost") return true;
  in_addr a4{};
  if (::inet_pton(AF_INET, host.c_str(), &a4) == 1) return (ntohl(a4.s_addr) >> 24) == 127;
  in6_addr a6{};
  if (::inet_pton(AF_INET6, host.c_str(), &a6) == 1) return IN6_IS_ADDR_LOOPBACK(&a6);
  return false;
}

// ---- Markdown page ------------------------------------------------------------------------

namespace {

std::string inline_markdown(std::string_view text) {
  std::string out;
  bool code = false, bold = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '`') {
      out += code ? "</code>" : "<code>";
      code = !code;
    } else if (!code && c == '*' && i + 1 < text.size() && text[i + 1] == '*') {
      out += bold ? "</strong>" : "<strong>";
      bold = !bold;
      ++i;
    } else {
      out += report::html_escape(std::string_view(&text[i], 1));
    }
  }
  if (code) out += "</code>";
  if (bold) out += "</strong>";
  return out;
}

std::vector<std::string> table_cells(std::string_view line) {
  std::vector<std::string> cells;
  std::string cur;
  bool code = false;
  for (std::size_t i = 1; i < line.size(); ++i) {  // after the leading '|'
    const char c = line[i];
    if (c == '`') code = !code;
    if (c == '|' && !code) {
      cells.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty() && cur.find_first_not_of(' ') != std::string::npos) cells.push_back(cur);
  for (auto& s : cells) {
    const auto b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
  }
  return cells;
}

}  // namespace

std::string markdown_page(std::string_view md, std::string_view title) {
  std::ostringstream h;
  h << "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << report::html_escape(title)
    << "</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;"
       "color:#1d232a}code,pre{font:13px ui-monospace,monospace;background:#f1f3f5;border-radius:3px}"
       "code{padding:0 .2em}pre{padding:.6rem;overflow:auto}table{border-collapse:collapse}"
       "td,th{border:1px solid #ccd;padding:.2rem .5rem}h3:target{background:#fff3bf}</style></head><body>\n";
  std::vector<std::string_view> lines;
  for (std::size_t pos = 0; pos <= md.size();) {
    std::size_t eol = md.find('\n', pos);
    if (eol == std::string_view::npos) eol = md.size();
    std::string_view l = md.substr(pos, eol - pos);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back(l);
    pos = eol + 1;
  }
  bool para = false, list = false;
  auto close_blocks = [&] {
    if (para) h << "</p>\n";
    if (list) h << "</ul>\n";
    para = list = false;
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view l = lines[i];
    if (l.substr(0, 3) == "```") {
      close_blocks();
      h << "<pre><code>";
      for (++i; i < lines.size() && lines[i].substr(0, 3) != "```"; ++i) h << report::html_escape(lines[i]) << "\n";
      h << "</code></pre>\n";
      continue;
    }
    std::size_t hashes = 0;
    while (hashes < l.size() && l[hashes] == '#') ++hashes;
    if (hashes >= 1 && hashes <= 6 && hashes < l.size() && l[hashes] == ' ') {
      close_blocks();
      const std::string_view text = l.substr(hashes + 1);
      h << "<h" << hashes << " id=\"" << report::html_escape(report::heading_anchor(text)) << "\">"
        << inline_markdown(text) << "</h" << hashes << ">\n";
      continue;
    }
    if (!l.empty() && l.front() == '|') {
      close_blocks();
      h << "<table>\n";
      bool header = true;
      for (; i < lines.size() && !lines[i].empty() && lines[i].front() == '|'; ++i) {
        const auto cells = table_cells(lines[i]);
        if (!cells.empty() && cells.front().find_first_not_of("-: ") == std::string::npos) continue;
        h << "<tr>";
        for (const auto& c : cells)
          h << (header ? "<th>" : "<td>") << inline_markdown(c) << (header ? "</th>" : "</td>");
        h << "</tr>\n";
        header = false;
      }
      --i;
      h << "</table>\n";
      continue;
    }
    if (l.empty()) {
      close_blocks();
      continue;
    }
    if (l.substr(0, 2) == "- " || l.substr(0, 2) == "* ") {
      if (para) h << "</p>\n", para = false;
      if (!list) h << "<ul>\n", list = true;
      h << "<li>" << inline_markdown(l.substr(2)) << "</li>\n";
      continue;
    }
    if (list && l.substr(0, 2) == "  ") {
      h << inline_markdown(l) << "\n";
      continue;
    }
    if (list) h << "</ul>\n", list = false;
    if (!para) h << "<p>", para = true;
    h << inline_markdown(l) << "\n";
  }
  close_blocks();
  h << "</body></html>\n";
  return h.str();
}

// ---- Server -------------------------------------------------------------------------------

namespace {

constexpr const char* kJson = "application/json; charset=utf-8";

bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::string cookie_value(const httplib::Request& req, const std::string& name) {
  const std::string all = req.get_header_value("Cookie");
  std::size_t pos = 0;
  while (pos < all.size()) {
    std::size_t end = all.find(';', pos);
    if (end == std::string::npos) end = all.size();
    std::string_view part(all.data() + pos, end - pos);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    if (part.size() > name.size() && part.substr(0, name.size()) == name && part[name.size()] == '=')
      return std::string(part.substr(name.size() + 1));
    pos = end + 1;
  }
  return {};
}

void send_json(httplib::Response& res, int status, const nlohmann::json& j) {
  res.status = status;
  res.set_content(j.dump(), kJson);
}

void send_error(httplib::Response& res, int status, const std::string& message) {
  send_json(res, status, {{"error", message}, {"status", status}});
}

// The base hash a write names: X-Ferry-Base-Hash, or an If-Match ETag.
std::string base_hash(const httplib::Request& req) {
  std::string h = req.get_header_value("X-Ferry-Base-Hash");
  if (h.empty()) h = req.get_header_value("If-Match");
  if (h.size() >= 2 && h.front() == '"' && h.back() == '"') h = h.substr(1, h.size() - 2);
  return h;
}

const analysis::Profile* fix_profile(const std::vector<const analysis::Profile*>& profiles) {
  for (const analysis::Profile* p : profiles)
    if (analysis::wave64_checks_apply(*p)) return p;
  return nullptr;
}

WorkspaceOptions workspace_options(const ServeOptions& o) {
  WorkspaceOptions w;
  w.out = o.out;
  w.max_file_bytes = o.max_body;
  w.fix_profile = fix_profile(o.verify.profiles);
  if (const Asset* a = find_asset("diagnostics.md")) w.diagnostics_markdown = std::string(a->data);
  return w;
}

}  // namespace

struct Server::Impl {
  explicit Impl(ServeOptions o)
      : opt(std::move(o)),
        token(opt.token.empty() ? random_token() : opt.token),
        ws(workspace_options(opt)),
        jobs(opt.max_jobs),
        loopback(is_loopback(opt.host)) {}

  ServeOptions opt;
  std::string token;
  std::string cookie_name;
  Workspace ws;
  JobQueue jobs;
  httplib::Server http;
  int port = -1;
  bool loopback;
  // stop() may come before run() has started listening (a SIGTERM right after the URL is
  // printed), when httplib's own stop() does nothing: the request is kept and honoured.
  std::mutex run_mutex;
  bool stop_requested = false;
  bool run_entered = false;
  std::atomic<bool> run_done{false};

  void routes();
  httplib::Server::HandlerResponse guard(const httplib::Request& req, httplib::Response& res);
  nlohmann::json submit(const nlohmann::json& body);
};

httplib::Server::HandlerResponse Server::Impl::guard(const httplib::Request& req, httplib::Response& res) {
  using R = httplib::Server::HandlerResponse;
  res.set_header("Cache-Control", "no-store");
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Referrer-Policy", "no-referrer");
  if (loopback) {
    // A page of another site that rebinds its name to 127.0.0.1 still sends its own Host.
    std::string host = req.get_header_value("Host");
    if (!host.empty() && host.front() == '[') host = host.substr(1, host.find(']') - 1);
    else if (const std::size_t colon = host.rfind(':'); colon != std::string::npos) host = host.substr(0, colon);
    if (!host.empty() && !is_loopback(host)) {
      send_error(
          res, 403,
          "unexpected Host '" + req.get_header_value("Host") + "': the workbench answers on " + opt.host + " only");
      return R::Handled;
    }
  }
  const std::string from_query = req.get_param_value("token");
  const std::string from_header = req.get_header_value("X-Ferry-Token");
  const std::string from_cookie = cookie_value(req, cookie_name);
  const bool ok = same_secret(from_query, token) || same_secret(from_header, token) || same_secret(from_cookie, token);
  if (!ok) {
    res.set_header("WWW-Authenticate", "Ferry-Token");
    send_error(res, 401, "a token is needed: open the URL ferry serve printed (it ends in ?token=...)");
    return R::Handled;
  }
  if (req.method != "GET" && req.method != "HEAD" && !same_secret(from_header, token)) {
    send_error(res, 403, "writes need the X-Ferry-Token header (the cookie alone is refused: CSRF protection)");
    return R::Handled;
  }
  if (same_secret(from_query, token) && !same_secret(from_cookie, token))
    res.set_header("Set-Cookie", cookie_name + "=" + token + "; Path=/; HttpOnly; SameSite=Strict");
  return R::Unhandled;
}

nlohmann::json Server::Impl::submit(const nlohmann::json& body) {
  const std::string kind = body.value("kind", "");
  std::optional<int> id;
  if (kind == "verify") {
    std::optional<std::string> only;
    if (body.contains("path") && body["path"].is_string()) {
      only = normalise_relative(body["path"].get<std::string>());
      if (!verify::is_translation_unit(*only))
        throw std::invalid_argument(*only +
                                    " is not a translation unit (.cu .hip .cpp .cc .cxx .c): verify all instead");
      if (!ws.out().readable(*only)) (void)ws.read(*only);  // throws the AccessError that explains it
    }
    std::string label = only ? "verify " + *only : "verify all";
    std::string archs;
    for (const analysis::Profile* p : opt.verify.profiles) archs += (archs.empty() ? "" : ",") + p->name;
    label += " (" + archs + ")";
    id = jobs.submit("verify", label,
                     [this, only](JobContext& ctx) { return run_verify_job(ws, opt.verify, only, ctx); });
  } else if (kind == "round") {
    id = jobs.submit(
        "round", "re-run the round (migrate the input into OUT)",
        [this](JobContext& ctx) { return run_round_job(ws, opt.migrate_jobs, ctx); }, false);
  } else {
    throw std::invalid_argument("unknown job kind '" + kind + "': verify or round");
  }
  if (!id)
    throw AccessError(429, std::to_string(opt.max_jobs) + " jobs are queued or running already; wait or cancel one");
  return *jobs.get(*id);
}

void Server::Impl::routes() {
  http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) { return guard(req, res); });
  http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    try {
      std::rethrow_exception(ep);
    } catch (const AccessError& e) {
      send_error(res, e.status(), e.what());
    } catch (const std::logic_error& e) {  // invalid_argument, out_of_range: a bad parameter
      send_error(res, 400, e.what());
    } catch (const nlohmann::json::exception& e) {
      send_error(res, 400, std::string("bad JSON: ") + e.what());
    } catch (const std::exception& e) {
      send_error(res, 500, e.what());
    } catch (...) {
      send_error(res, 500, "unknown error");
    }
  });
  http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    const char* why = res.status == 413   ? "request body too large (see --max-body)"
                      : res.status == 404 ? "no such route"
                      : res.status == 400 ? "bad request (a POST or PUT needs a Content-Length)"
                                          : "request refused";
    send_error(res, res.status, why);
  });

  auto page_headers = [](httplib::Response& res) {
    res.set_header("Content-Security-Policy",
                   "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                   "connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
                   "frame-ancestors 'none'");
    res.set_header("X-Frame-Options", "DENY");
  };
  http.Get("/", [this, page_headers](const httplib::Request&, httplib::Response& res) {
    const Asset* a = find_asset("index.html");
    std::string html = a ? std::string(a->data) : std::string("<!doctype html><p>front end missing</p>");
    const std::string marker = "%FERRY_TOKEN%";
    for (std::size_t p; (p = html.find(marker)) != std::string::npos;) html.replace(p, marker.size(), token);
    page_headers(res);
    res.set_content(html, "text/html; charset=utf-8");
  });
  http.Get(R"(/([A-Za-z0-9_-]+\.(js|css|png|svg)))",
           [page_headers](const httplib::Request& req, httplib::Response& res) {
             const Asset* a = find_asset(req.matches[1].str());
             if (!a) return send_error(res, 404, "no such file");
             page_headers(res);
             res.set_content(std::string(a->data), std::string(a->content_type).c_str());
           });
  http.Get("/docs/diagnostics.md", [page_headers](const httplib::Request&, httplib::Response& res) {
    const Asset* a = find_asset("diagnostics.md");
    if (!a) return send_error(res, 404, "docs/diagnostics.md was not built into this binary");
    page_headers(res);
    res.set_content(markdown_page(a->data, "Ferry diagnostics"), "text/html; charset=utf-8");
  });

  http.Get("/api/project", [this](const httplib::Request&, httplib::Response& res) {
    nlohmann::json p = ws.project();
    nlohmann::json archs = nlohmann::json::array();
    for (const analysis::Profile* pr : opt.verify.profiles) archs.push_back(pr->name);
    p["serve"] = {{"archs", archs},           {"hipcc", opt.verify.hipcc}, {"nvcc", opt.verify.nvcc},
                  {"max_body", opt.max_body}, {"max_jobs", opt.max_jobs},  {"fix_profile", nullptr}};
    if (const analysis::Profile* fp = fix_profile(opt.verify.profiles)) p["serve"]["fix_profile"] = fp->name;
    send_json(res, 200, p);
  });
  http.Get("/api/file", [this](const httplib::Request& req, httplib::Response& res) {
    const std::string text = ws.read(req.get_param_value("path"));
    const std::string hash = migrate::content_hash(text);
    res.set_header("ETag", "\"" + hash + "\"");
    res.set_header("X-Ferry-Hash", hash);
    res.set_content(text,
                    text.find('\0') == std::string::npos ? "text/plain; charset=utf-8" : "application/octet-stream");
  });
  http.Put("/api/file", [this](const httplib::Request& req, httplib::Response& res) {
    const std::string rel = req.get_param_value("path");
    const std::string base = base_hash(req);
    if (base.empty())
      return send_error(res, 428, "name the version you edited: header X-Ferry-Base-Hash (or If-Match) with its hash");
    try {
      const SaveResult r = ws.save(rel, req.body, base);
      res.set_header("ETag", "\"" + r.hash + "\"");
      send_json(res, 200, {{"path", normalise_relative(rel)}, {"hash", r.hash}, {"bytes", r.bytes}, {"saved", true}});
    } catch (const AccessError& e) {
      if (e.status() != kConflict) throw;
      nlohmann::json j = {{"error", e.what()}, {"status", 409}};
      try {
        j["current_hash"] = migrate::content_hash(ws.read(rel));
      } catch (const std::exception&) {
      }
      send_json(res, 409, j);
    }
  });
  http.Get("/api/original", [this](const httplib::Request& req, httplib::Response& res) {
    res.set_content(ws.read_original(req.get_param_value("path")), "text/plain; charset=utf-8");
  });
  http.Get("/api/view", [this](const httplib::Request& req, httplib::Response& res) {
    send_json(res, 200, ws.view(req.get_param_value("path")));
  });
  http.Post("/api/fix", [this](const httplib::Request& req, httplib::Response& res) {
    const std::string base = base_hash(req);
    if (base.empty()) return send_error(res, 428, "name the version the fix is for: header X-Ferry-Base-Hash");
    const SaveResult r = ws.apply_fix(req.get_param_value("path"), req.get_param_value("id"), base);
    send_json(res, 200,
              {{"path", normalise_relative(req.get_param_value("path"))}, {"hash", r.hash}, {"applied", true}});
  });
  http.Post("/api/jobs", [this](const httplib::Request& req, httplib::Response& res) {
    const nlohmann::json body = req.body.empty() ? nlohmann::json::object() : nlohmann::json::parse(req.body);
    send_json(res, 202, submit(body));
  });
  http.Get("/api/jobs", [this](const httplib::Request& req, httplib::Response& res) {
    if (req.has_param("since")) {
      const std::uint64_t since = std::stoull(req.get_param_value("since"));
      (void)jobs.wait_for_change(since, std::chrono::seconds(25));
    }
    send_json(res, 200, jobs.list());
  });
  http.Get(R"(/api/jobs/(\d+))", [this](const httplib::Request& req, httplib::Response& res) {
    const auto j = jobs.get(std::stoi(req.matches[1].str()));
    if (!j) return send_error(res, 404, "no such job");
    send_json(res, 200, *j);
  });
  http.Post(R"(/api/jobs/(\d+)/cancel)", [this](const httplib::Request& req, httplib::Response& res) {
    const int id = std::stoi(req.matches[1].str());
    std::string why;
    if (!jobs.cancel(id, &why)) return send_error(res, jobs.get(id) ? 409 : 404, why);
    send_json(res, 200, *jobs.get(id));
  });
  http.Get("/api/report", [this](const httplib::Request& req, httplib::Response& res) {
    const std::string format = req.has_param("format") ? req.get_param_value("format") : "html";
    const std::string text = report::render_report(ws.out_path(), format);
    if (format == "html") {
      // The report is a self-contained page with inline script: shown in a sandboxed frame with
      // an origin of its own, so its script cannot reach the API.
      res.set_header("Content-Security-Policy",
                     "sandbox allow-scripts; default-src 'none'; style-src 'unsafe-inline'; "
                     "script-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'");
      res.set_content(text, "text/html; charset=utf-8");
      return;
    }
    if (req.get_param_value("download") == "1")
      res.set_header("Content-Disposition", std::string("attachment; filename=\"ferry-report.") +
                                                (format == "sarif" ? "sarif" : "json") + "\"");
    res.set_content(text, format == "sarif" ? "application/sarif+json" : kJson);
  });
}

Server::Server(ServeOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  Impl& s = *impl_;
  if (s.opt.verify.profiles.empty()) throw std::invalid_argument("no --arch profile");
  s.http.new_task_queue = [] { return new httplib::ThreadPool(12); };
  s.http.set_payload_max_length(s.opt.max_body);
  s.http.set_read_timeout(30, 0);
  s.http.set_write_timeout(30, 0);
  s.routes();
  if (s.opt.port == 0) {
    s.port = s.http.bind_to_any_port(s.opt.host);
  } else {
    s.port = s.http.bind_to_port(s.opt.host, s.opt.port) ? s.opt.port : -1;
  }
  if (s.port <= 0)
    throw std::runtime_error("cannot listen on " + s.opt.host + ":" + std::to_string(s.opt.port) +
                             " (in use, or not an address of this machine)");
  s.cookie_name = "ferry_token_" + std::to_string(s.port);
}

Server::~Server() { stop(); }

int Server::port() const { return impl_->port; }
const std::string& Server::token() const { return impl_->token; }

std::string Server::url() const {
  std::string host = impl_->opt.host;
  if (host == "0.0.0.0" || host == "::") host = "127.0.0.1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return "http://" + host + ":" + std::to_string(impl_->port) + "/?token=" + impl_->token;
}

void Server::run() {
  Impl& s = *impl_;
  {
    const std::lock_guard lock(s.run_mutex);
    if (s.stop_requested) return;
    s.run_entered = true;
  }
  s.http.listen_after_bind();
  s.run_done = true;
}

void Server::stop() {
  Impl& s = *impl_;
  bool entered = false;
  {
    const std::lock_guard lock(s.run_mutex);
    s.stop_requested = true;
    entered = s.run_entered;
  }
  s.jobs.shutdown();     // wakes long polls, cancels compiles
  if (!entered) return;  // run() will not start listening
  // run() is listening or about to: httplib's stop() only acts once it is.
  while (!s.http.is_running() && !s.run_done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  s.http.stop();
}

}  // namespace ferry::serve
