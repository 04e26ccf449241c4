#include "report/html.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "migrate/merge3.h"

namespace ferry::report {

std::string html_escape(std::string_view s) {
  std::string o;
  o.reserve(s.size() + s.size() / 8);
  for (const char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += c;
    }
  }
  return o;
}

namespace {

using json = nlohmann::json;

constexpr const char* kStyle = R"css(
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d232b;background:#f5f6f8}
header{background:#20364f;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px}
header .sub{opacity:.8;font-size:13px;margin-top:4px}
main{padding:12px 24px 40px}section{background:#fff;border:1px solid #dde1e6;border-radius:6px;margin:14px 0;padding:12px 16px}
h2{font-size:16px;margin:4px 0 10px}
.cards{display:flex;flex-wrap:wrap;gap:10px}.card{border:1px solid #dde1e6;border-radius:6px;padding:8px 14px;min-width:92px;background:#fafbfc}
.card .num{font-size:22px;font-weight:600}.card .lbl{font-size:12px;color:#5b6570}
.card.err .num{color:#b3261e}.card.warn .num{color:#a15c00}.card.ok .num{color:#1b7f3b}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:3px 8px;border-bottom:1px solid #eef0f2;vertical-align:top}
th{background:#f0f2f5;font-weight:600}
.sev-error{color:#b3261e;font-weight:600}.sev-warning{color:#a15c00;font-weight:600}.sev-note{color:#35619a;font-weight:600}
details.file{border:1px solid #dde1e6;border-radius:6px;margin:8px 0;background:#fff}
details.file>summary{cursor:pointer;padding:6px 10px;background:#f0f2f5;border-radius:6px;font-family:ui-monospace,Menlo,Consolas,monospace}
.badge{display:inline-block;border-radius:9px;padding:0 7px;margin-left:6px;font-size:12px;background:#e4e7eb;font-family:system-ui,sans-serif}
.badge.error{background:#f9dedc;color:#b3261e}.badge.warning{background:#fdebc8;color:#7a4500}.badge.note{background:#dfe9f7;color:#35619a}
table.diff{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;table-layout:fixed}
table.diff td{border:0;padding:0 6px;white-space:pre-wrap;word-break:break-all}
table.diff td.ln{width:44px;color:#8a939c;text-align:right;user-select:none;background:#fafbfc}
table.diff td.mk{width:10px;color:#7a4fb0;padding:0}
tr.chg td.o{background:#fdecea}tr.chg td.n{background:#e6f4ea}tr.del td.o{background:#fdecea}tr.add td.n{background:#e6f4ea}
tr.diag td{white-space:normal;padding:3px 10px;font-family:system-ui,sans-serif;font-size:12.5px}
tr.diag.error td{background:#fbe9e7;border-left:3px solid #b3261e}tr.diag.warning td{background:#fff4e0;border-left:3px solid #d48a00}
tr.diag.note td{background:#eaf1fb;border-left:3px solid #35619a}
.scroll{max-height:420px;overflow:auto;border:1px solid #eef0f2}
.hint{color:#4b5560}.muted{color:#6b747d}.controls{margin:6px 0 4px}.controls label{margin-right:14px}
svg text{font:11px system-ui,sans-serif;fill:#1d232b}
td.num{text-align:right;font-variant-numeric:tabular-nums}.res-pass{color:#1b7f3b;font-weight:600}.res-fail{color:#b3261e;font-weight:600}
.res-error{color:#b3261e}.res-unsupported{color:#6b747d}tr.first td{border-top:2px solid #dde1e6}
.hist{display:inline-flex;align-items:flex-end;gap:1px;height:18px;vertical-align:middle}.hist span{width:6px;background:#35619a;display:inline-block}
)css";

constexpr const char* kScript = R"js(
(function(){
  var only=document.getElementById('only-diags'),all=document.querySelectorAll('details.file');
  function apply(){var shown=0;for(var i=0;i<all.length;i++){var hide=only.checked&&all[i].dataset.diags==='0';
    all[i].style.display=hide?'none':'';if(!hide)shown++;}
    document.getElementById('files-shown').textContent=shown+' of '+all.length+' files shown';}
  only.addEventListener('change',apply);
  document.getElementById('expand-all').addEventListener('click',function(){for(var i=0;i<all.length;i++)all[i].open=true;});
  document.getElementById('collapse-all').addEventListener('click',function(){for(var i=0;i<all.length;i++)all[i].open=false;});
  apply();
  var n=0,e=0,w=0,t=0;document.querySelectorAll('tr.diag').forEach(function(r){n++;
    if(r.classList.contains('error'))e++;else if(r.classList.contains('warning'))w++;else t++;});
  var c=document.getElementById('diag-rows');c.textContent=n+' diagnostics placed in the diffs ('+e+' errors, '+w+' warnings, '+t+' notes)';
  c.dataset.value=n;
})();
)js";

std::size_t count_of(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<std::size_t>() : 0;
}

std::string card(const std::string& id, const std::string& value, const std::string& label, const char* cls = "") {
  return fmt::format(
      R"(<div class="card {}"><div class="num" id="{}" data-value="{}">{}</div><div class="lbl">{}</div></div>)", cls,
      id, html_escape(value), html_escape(value), html_escape(label));
}

bool is_hazard(const std::string& code) {
  return code.size() == 7 && code.starts_with("FRY") && (code[3] == '2' || code[3] == '3');
}

std::string strip_eol(std::string_view l) {
  while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.remove_suffix(1);
  return std::string(l);
}

std::string location(const json& d) {
  std::string s = d.value("file", "");
  if (d.value("line", 0u) > 0) s += ":" + std::to_string(d.value("line", 0u));
  if (d.value("col", 0u) > 0) s += ":" + std::to_string(d.value("col", 0u));
  return s;
}

std::string diag_row(const json& d) {
  const std::string sev = d.value("severity", "warning");
  std::string s = fmt::format(R"(<tr class="diag {}"><td colspan="6"><span class="sev-{}">{}</span> <b>{}</b> {}: {})",
                              html_escape(sev), html_escape(sev), html_escape(sev), html_escape(d.value("code", "")),
                              html_escape(location(d)), html_escape(d.value("message", "")));
  if (!d.value("hint", "").empty()) s += R"(<div class="hint">fix: )" + html_escape(d.value("hint", "")) + "</div>";
  return s + "</td></tr>\n";
}

// The rounds chart: one stacked bar per round (what happened to the files), and the diagnostics
// count of each round as a line on its own scale.
std::string rounds_chart(const json& rounds) {
  if (!rounds.is_array() || rounds.empty()) return R"(<p class="muted">No rounds recorded.</p>)";
  struct Series {
    const char* key;
    const char* label;
    const char* color;
  };
  const Series series[] = {{"migrated", "migrated", "#3a78c2"},    {"copied", "copied", "#9bb7d9"},
                           {"unchanged", "unchanged", "#c9ced5"},  {"merged", "merged", "#2e9e5b"},
                           {"conflicted", "conflicts", "#c8382c"}, {"edited_by_hand", "edited by hand", "#e39b2d"}};
  const double W = 860, H = 240, left = 48, right = 56, top = 16, bottom = 56;
  const double plot_w = W - left - right, plot_h = H - top - bottom;
  double max_files = 1, max_diags = 1;
  for (const auto& r : rounds) {
    double sum = 0;
    for (const Series& s : series) sum += static_cast<double>(count_of(r, s.key));
    max_files = std::max(max_files, sum);
    max_diags = std::max(max_diags, static_cast<double>(count_of(r, "diagnostics")));
  }
  const double n = static_cast<double>(rounds.size());
  const double slot = plot_w / n, bar = std::min(60.0, slot * 0.6);
  std::ostringstream o;
  o << fmt::format(
      R"(<svg id="rounds-chart" role="img" aria-label="history of rounds" width="{}" height="{}" viewBox="0 0 {} {}" xmlns="http://www.w3.org/2000/svg">)",
      W, H, W, H);
  o << fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#8a939c"/>)", left, top + plot_h, left + plot_w,
                   top + plot_h);
  for (int t = 0; t <= 4; ++t) {  // left axis: files
    const double y = top + plot_h - plot_h * t / 4.0;
    o << fmt::format(
        R"(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="#eef0f2"/><text x="{}" y="{:.1f}" text-anchor="end">{:.0f}</text>)",
        left, y, left + plot_w, y, left - 6, y + 4, max_files * t / 4.0);
    o << fmt::format(R"(<text x="{}" y="{:.1f}" style="fill:#7a4fb0">{:.0f}</text>)", left + plot_w + 6, y + 4,
                     max_diags * t / 4.0);
  }
  std::string line_points;
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    const json& r = rounds[i];
    const double x = left + slot * (static_cast<double>(i) + 0.5);
    double y = top + plot_h;
    for (const Series& s : series) {
      const double v = static_cast<double>(count_of(r, s.key));
      if (v <= 0) continue;
      const double h = plot_h * v / max_files;
      y -= h;
      o << fmt::format(
          R"(<rect class="bar" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}"><title>round {}: {} {}</title></rect>)",
          x - bar / 2, y, bar, h, s.color, r.value("round", 0), v, s.label);
    }
    o << fmt::format(R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle">round {}</text>)", x, top + plot_h + 14,
                     r.value("round", 0));
    const double dy = top + plot_h - plot_h * static_cast<double>(count_of(r, "diagnostics")) / max_diags;
    line_points += fmt::format("{:.1f},{:.1f} ", x, dy);
    o << fmt::format(
        R"(<circle cx="{:.1f}" cy="{:.1f}" r="3.5" fill="#7a4fb0"><title>round {}: {} diagnostics (+{} −{})</title></circle>)",
        x, dy, r.value("round", 0), count_of(r, "diagnostics"), count_of(r, "opened"), count_of(r, "closed"));
  }
  o << fmt::format(R"(<polyline points="{}" fill="none" stroke="#7a4fb0" stroke-width="2"/>)", line_points);
  double lx = left;  // legend
  const double ly = H - 16;
  for (const Series& s : series) {
    o << fmt::format(
        R"(<rect x="{:.0f}" y="{:.0f}" width="10" height="10" fill="{}"/><text x="{:.0f}" y="{:.0f}">{}</text>)", lx,
        ly - 9, s.color, lx + 14, ly, s.label);
    lx += 28 + 6.5 * static_cast<double>(std::string_view(s.label).size());
  }
  o << fmt::format(
      R"(<line x1="{:.0f}" y1="{:.0f}" x2="{:.0f}" y2="{:.0f}" stroke="#7a4fb0" stroke-width="2"/><text x="{:.0f}" y="{:.0f}">diagnostics (right axis)</text>)",
      lx, ly - 4, lx + 14, ly - 4, lx + 18, ly);
  o << "</svg>\n";
  return o.str();
}

std::string verify_section(const json& v) {
  if (!v.is_object())
    return R"(<p class="muted" id="verify-none">ferry verify has not been run on this tree (it records OUT/.ferry/verify.json).</p>)";
  const json s = v.value("summary", json::object());
  std::ostringstream o;
  const std::size_t passed = count_of(s, "passed"), compiles = count_of(s, "compiles"), failed = count_of(s, "failed");
  o << R"(<div class="cards">)" << card("verify-passed", std::to_string(passed), "compiles passed", "ok")
    << card("verify-failed", std::to_string(failed), "compiles failed", failed ? "err" : "")
    << card("verify-compiles", std::to_string(compiles), "compiles");
  if (s.contains("by_class") && s["by_class"].is_object())
    for (const auto& [cls, n] : s["by_class"].items())
      o << card("verify-class-" + cls, std::to_string(n.get<std::size_t>()), cls,
                cls == "migration-defect" ? "err" : "");
  o << "</div>\n<div class=\"scroll\"><table id=\"verify-units\"><tr><th>file</th><th>arch</th><th>status</th><th>class</th><th>seconds</th><th>first error (original location)</th></tr>\n";
  for (const auto& u : v.value("units", json::array())) {
    std::string first;
    if (u.contains("errors") && u["errors"].is_array() && !u["errors"].empty()) {
      const json& e = u["errors"][0];
      if (e.contains("original") && e["original"].is_object())
        first = e["original"].value("file", "") + ":" + std::to_string(e["original"].value("line", 0u)) + ": ";
      first += e.value("message", "");
    }
    const bool pass = u.value("status", "") == "pass";
    o << fmt::format("<tr><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td><td>{:.1f}</td><td>{}</td></tr>\n",
                     html_escape(u.value("file", "")), html_escape(u.value("arch", "")), pass ? "" : "sev-error",
                     html_escape(u.value("status", "")), html_escape(u.value("class", "")),
                     u.contains("seconds") && u["seconds"].is_number() ? u["seconds"].get<double>() : 0.0,
                     html_escape(first));
  }
  o << "</table></div>\n";
  return o.str();
}

// Side-by-side rows: common lines paired, a changed region paired line by line, the rest one-sided.
std::string diff_table(const std::string& original, const std::string& output, const std::vector<json>& diags,
                       const std::set<std::size_t>& ferry_lines) {
  const auto a = split_lines(original);
  const auto b = split_lines(output);
  std::map<std::size_t, std::vector<const json*>> at_line;  // original line -> diagnostics
  std::vector<const json*> loose;                           // line 0, or past the end
  for (const json& d : diags) {
    const std::size_t l = d.value("line", 0u);
    if (l >= 1 && l <= a.size()) at_line[l].push_back(&d);
    else loose.push_back(&d);
  }
  std::ostringstream o;
  o << R"(<table class="diff"><colgroup><col style="width:44px"><col style="width:10px"><col><col style="width:44px"><col style="width:10px"><col></colgroup>)"
    << "\n";
  for (const json* d : loose) o << diag_row(*d);
  auto row = [&](const char* cls, std::size_t ia, std::size_t ib) {  // 1-based, 0 = none
    o << "<tr class=\"" << cls << "\">";
    if (ia)
      o << "<td class=\"ln\">" << ia << "</td><td class=\"mk\"></td><td class=\"o\">"
        << html_escape(strip_eol(a[ia - 1])) << "</td>";
    else o << "<td class=\"ln\"></td><td class=\"mk\"></td><td class=\"o\"></td>";
    if (ib)
      o << "<td class=\"ln\">" << ib << "</td><td class=\"mk\""
        << (ferry_lines.contains(ib) ? R"( title="changed by Ferry">●)" : ">") << "</td><td class=\"n\">"
        << html_escape(strip_eol(b[ib - 1])) << "</td>";
    else o << "<td class=\"ln\"></td><td class=\"mk\"></td><td class=\"n\"></td>";
    o << "</tr>\n";
    if (ia)
      if (const auto it = at_line.find(ia); it != at_line.end())
        for (const json* d : it->second) o << diag_row(*d);
  };
  std::size_t ia = 0, ib = 0;
  auto common_until = [&](std::size_t a_end) {
    while (ia < a_end) {
      ++ia, ++ib;
      row("", ia, ib);
    }
  };
  for (const migrate::Hunk& h : migrate::diff_lines(a, b)) {
    common_until(h.a_begin);
    const std::size_t na = h.a_end - h.a_begin, nb = h.b_end - h.b_begin;
    for (std::size_t k = 0; k < std::max(na, nb); ++k) {
      const bool has_a = k < na, has_b = k < nb;
      row(has_a && has_b ? "chg" : has_a ? "del" : "add", has_a ? h.a_begin + k + 1 : 0, has_b ? h.b_begin + k + 1 : 0);
    }
    ia = h.a_end;
    ib = h.b_end;
  }
  common_until(a.size());
  o << "</table>\n";
  return o.str();
}

bool looks_binary(const std::string& s) { return s.find('\0') != std::string::npos; }

// The target's worklist (tf_npu: the success / failed / needs-manual lists of Ascend's migration
// tool), one table per list; nothing when no file has one.
std::string worklist_section(const json& files) {
  static constexpr std::pair<const char*, const char*> kLists[] = {
      {"success", "Converted"}, {"failed", "Failed"}, {"needs_manual", "Needs manual migration"}};
  std::map<std::string, std::vector<std::pair<std::string, json>>> by_list;
  for (const auto& f : files)
    for (const auto& w : f.value("worklist", json::array()))
      by_list[w.value("list", "")].push_back({f.value("path", ""), w});
  if (by_list.empty()) return {};
  std::ostringstream o;
  o << "<section id=\"worklist\"><h2>Worklist</h2><p class=\"muted\">";
  for (const auto& [key, title] : kLists) o << title << ": " << by_list[key].size() << ". ";
  o << "</p>";
  for (const auto& [key, title] : kLists) {
    const auto& rows = by_list[key];
    if (rows.empty()) continue;
    o << "<h3>" << title << " (" << rows.size() << ")</h3><div class=\"scroll\"><table class=\"worklist\" data-list=\""
      << key << "\"><tr><th>location</th><th>API</th><th>detail</th></tr>\n";
    for (const auto& [path, w] : rows)
      o << "<tr><td>" << html_escape(path) << ":" << w.value("line", 0) << "</td><td>"
        << html_escape(w.value("api", "")) << "</td><td class=\"hint\">" << html_escape(w.value("detail", ""))
        << "</td></tr>\n";
    o << "</table></div>";
  }
  o << "</section>\n";
  return o.str();
}

}  // namespace

std::string to_html(const json& report, const HtmlSources& src) {
  const json& m = report.contains("migration") ? report["migration"] : report;
  const json files = m.value("files", json::array());
  const json diags = m.value("diagnostics", json::array());
  const json totals = m.value("totals", json::object());
  const json rounds = report.value("rounds", json::array());
  const json verify = report.contains("verify") ? report["verify"] : json(nullptr);

  std::map<std::string, std::size_t> actions;
  for (const auto& f : files) ++actions[f.value("action", "")];
  std::size_t errors = 0, warnings = 0, notes = 0, hazards = 0;
  std::map<std::string, std::vector<json>> by_file;
  for (const auto& d : diags) {
    const std::string sev = d.value("severity", "warning");
    (sev == "error" ? errors : sev == "note" ? notes : warnings)++;
    if (is_hazard(d.value("code", ""))) ++hazards;
    by_file[d.value("file", "")].push_back(d);
  }
  std::size_t converted = 0, unconverted = 0;
  const json converted_by_family = totals.value("converted", json::object());
  const json unconverted_by_family = totals.value("unconverted", json::object());
  for (const auto& [k, v] : converted_by_family.items()) converted += v.get<std::size_t>();
  for (const auto& [k, v] : unconverted_by_family.items()) unconverted += v.get<std::size_t>();

  const std::string input = report.value("input", m.value("input", ""));
  const std::string output = report.value("output", m.value("output", ""));
  const std::string target = report.value("target", m.value("target", ""));
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    << "<title>Ferry report: " << html_escape(input) << " → " << html_escape(target) << "</title>"
    << "<style>" << kStyle << "</style></head>\n<body>\n<header><h1>Ferry migration report</h1><div class=\"sub\">"
    << html_escape(input) << " → " << html_escape(target) << " in " << html_escape(output);
  if (rounds.is_array() && !rounds.empty())
    o << " · round " << rounds.back().value("round", 0) << " at " << html_escape(rounds.back().value("time", ""));
  o << " · ferry " << html_escape(report.value("ferry_version", "")) << "</div></header>\n<main>\n";

  // Summary
  o << "<section id=\"summary\"><h2>Summary</h2><div class=\"cards\">"
    << card("sum-files", std::to_string(files.size()), "files")
    << card("sum-migrated", std::to_string(actions["migrated"]), "migrated")
    << card("sum-copied", std::to_string(actions["copied"]), "copied")
    << card("sum-unchanged", std::to_string(actions["unchanged"] + actions["kept"]), "unchanged / kept")
    << card("sum-merged", std::to_string(actions["merged"]), "merged")
    << card("sum-conflicts", std::to_string(actions["conflict"]), "conflicts", actions["conflict"] ? "err" : "")
    << card("sum-diagnostics", std::to_string(diags.size()), "diagnostics")
    << card("sum-errors", std::to_string(errors), "errors", errors ? "err" : "")
    << card("sum-warnings", std::to_string(warnings), "warnings", warnings ? "warn" : "")
    << card("sum-notes", std::to_string(notes), "notes")
    << card("sum-hazards", std::to_string(hazards), "hazards (FRY2xxx/3xxx)", hazards ? "warn" : "")
    << card("sum-converted", std::to_string(converted), "API refs converted", "ok")
    << card("sum-unconverted", std::to_string(unconverted), "API refs left for review", unconverted ? "warn" : "");
  if (verify.is_object() && verify.contains("summary") && count_of(verify["summary"], "compiles") > 0) {
    const double rate = 100.0 * static_cast<double>(count_of(verify["summary"], "passed")) /
                        static_cast<double>(count_of(verify["summary"], "compiles"));
    o << card("sum-verify", fmt::format("{:.0f}%", rate), "verify pass rate", rate >= 100 ? "ok" : "warn");
  }
  o << "</div>";
  if (!totals.value("diagnostics_by_code", json::object()).empty()) {
    o << "<p class=\"muted\">by code:";
    for (const auto& [code, n] : totals["diagnostics_by_code"].items())
      o << " <span class=\"badge\" data-code=\"" << html_escape(code) << "\">" << html_escape(code) << " × "
        << n.get<std::size_t>() << "</span>";
    o << "</p>";
  }
  o << "</section>\n";

  o << "<section id=\"rounds\"><h2>Rounds</h2>" << rounds_chart(rounds) << "</section>\n";

  // Hazards
  o << "<section id=\"hazards\"><h2>Hazards (" << hazards << ")</h2>";
  if (hazards == 0) o << "<p class=\"muted\">No wave64/warp (FRY2xxx) or resource-limit (FRY3xxx) hazards.</p>";
  else {
    o << "<div class=\"scroll\"><table id=\"hazard-table\"><tr><th>code</th><th>severity</th><th>location</th><th>message</th><th>fix</th></tr>\n";
    for (const auto& d : diags)
      if (is_hazard(d.value("code", "")))
        o << "<tr class=\"hazard\"><td>" << html_escape(d.value("code", "")) << "</td><td class=\"sev-"
          << html_escape(d.value("severity", "")) << "\">" << html_escape(d.value("severity", "")) << "</td><td>"
          << html_escape(location(d)) << "</td><td>" << html_escape(d.value("message", ""))
          << "</td><td class=\"hint\">" << html_escape(d.value("hint", "")) << "</td></tr>\n";
    o << "</table></div>";
  }
  o << "</section>\n";

  o << worklist_section(files);
  o << "<section id=\"verify\"><h2>Verify</h2>" << verify_section(verify) << "</section>\n";
  if (report.contains("opcheck") && report["opcheck"].is_object()) o << opcheck_section(report["opcheck"]);

  // Files
  o << "<section id=\"files\"><h2>Files</h2><div class=\"controls\"><label><input type=\"checkbox\" id=\"only-diags\"> only files "
       "with diagnostics</label><button id=\"expand-all\" type=\"button\">expand all</button> <button id=\"collapse-all\" "
       "type=\"button\">collapse all</button> <span id=\"files-shown\" class=\"muted\"></span> · <span id=\"diag-rows\" "
       "class=\"muted\"></span></div>\n";
  std::set<std::string> listed;
  for (const auto& f : files) {
    const std::string rel = f.value("path", "");
    listed.insert(rel);
    const auto fd = by_file.find(rel);
    const std::vector<json> none;
    const std::vector<json>& fdiags = fd != by_file.end() ? fd->second : none;
    std::map<std::string, std::size_t> sev;
    for (const json& d : fdiags) ++sev[d.value("severity", "warning")];
    o << "<details class=\"file\" data-path=\"" << html_escape(rel) << "\" data-diags=\"" << fdiags.size() << "\""
      << (fdiags.empty() ? "" : " open") << "><summary>" << html_escape(rel) << " <span class=\"badge\">"
      << html_escape(f.value("action", "")) << "</span><span class=\"badge\">" << html_escape(f.value("kind", ""))
      << "</span>";
    for (const char* s : {"error", "warning", "note"})
      if (sev[s])
        o << "<span class=\"badge " << s << "\">" << sev[s] << " " << s << (sev[s] > 1 ? "s" : "") << "</span>";
    o << "</summary>\n";
    const std::optional<std::string> orig = src.original ? src.original(rel) : std::nullopt;
    const std::optional<std::string> out = src.output ? src.output(rel) : std::nullopt;
    std::set<std::size_t> ferry_lines;
    if (src.linemaps.is_object() && src.linemaps.contains("files") && src.linemaps["files"].contains(rel))
      for (const auto& l : src.linemaps["files"][rel].value("changed_out_lines", json::array()))
        ferry_lines.insert(l.get<std::size_t>());
    if (!orig && !out) {
      o << "<p class=\"muted\">neither the original nor the output can be read.</p>";
      for (const json& d : fdiags) o << "<table class=\"diff\">" << diag_row(d) << "</table>";
    } else if ((orig && (orig->size() > src.max_file_bytes || looks_binary(*orig))) ||
               (out && (out->size() > src.max_file_bytes || looks_binary(*out)))) {
      o << "<p class=\"muted\">binary or larger than " << src.max_file_bytes / 1024 << " KiB: no diff shown.</p>";
      for (const json& d : fdiags) o << "<table class=\"diff\">" << diag_row(d) << "</table>";
    } else {
      if (!orig) o << "<p class=\"muted\">the original is missing from the input tree.</p>";
      if (!out) o << "<p class=\"muted\">the output is missing from OUT.</p>";
      if (orig && out && *orig == *out && fdiags.empty()) o << "<p class=\"muted\">identical to the original.</p>";
      else o << diff_table(orig.value_or(""), out.value_or(""), fdiags, ferry_lines);
    }
    o << "</details>\n";
  }
  for (const auto& [rel, fdiags] : by_file)  // diagnostics about files the tree does not list (e.g. walk problems)
    if (!listed.contains(rel)) {
      o << "<details class=\"file\" open data-path=\"" << html_escape(rel) << "\" data-diags=\"" << fdiags.size()
        << "\"><summary>" << html_escape(rel.empty() ? "(tree)" : rel) << "</summary><table class=\"diff\">";
      for (const json& d : fdiags) o << diag_row(d);
      o << "</table></details>\n";
    }
  o << "</section>\n</main>\n<script>" << kScript << "</script>\n</body></html>\n";
  return o.str();
}

namespace {

std::string fmt_num(const json& v, const char* spec = "{:.2e}") {
  if (v.is_number()) return fmt::format(fmt::runtime(spec), v.get<double>());
  if (v.is_string()) return v.get<std::string>();
  return "-";
}

// Eight bars, log-scaled counts of the ULP buckets 0, <=0.5, <=1, <=2, <=4, <=16, <=64, >64.
std::string ulp_histogram(const json& h) {
  static const char* kLabels[] = {"0", "<=0.5", "<=1", "<=2", "<=4", "<=16", "<=64", ">64"};
  double top = 0;
  for (const char* l : kLabels) top = std::max(top, std::log1p(h.value(l, 0.0)));
  std::string s = "<span class=\"hist\" title=\"ULP error histogram:";
  for (const char* l : kLabels) s += fmt::format(" {} {}", l, h.value(l, 0));
  s += "\">";
  for (const char* l : kLabels) {
    const double v = std::log1p(h.value(l, 0.0));
    s += fmt::format(R"(<span style="height:{}px;{}"></span>)", top > 0 ? static_cast<int>(1 + 17 * v / top) : 1,
                     std::string(l) == ">64" && h.value(l, 0) > 0 ? "background:#b3261e" : "");
  }
  return s + "</span>";
}

}  // namespace

std::string opcheck_section(const json& r) {
  std::ostringstream o;
  const json sum = r.value("summary", json::object());
  o << "<section id=\"operators\"><h2>Operators</h2><div class=\"cards\">"
    << card("op-checks", std::to_string(sum.value("checks", 0)), "checks")
    << card("op-passed", std::to_string(sum.value("passed", 0)), "passed", "ok")
    << card("op-failed", std::to_string(sum.value("failed", 0)), "failed", sum.value("failed", 0) ? "err" : "")
    << card("op-errors", std::to_string(sum.value("errors", 0)), "errors", sum.value("errors", 0) ? "err" : "")
    << card("op-unsupported", std::to_string(sum.value("unsupported", 0)), "unsupported") << "</div>";
  if (r.contains("torch") && r["torch"].is_object())
    o << "<p class=\"muted\">PyTorch " << html_escape(r["torch"].value("torch", "")) << " on "
      << html_escape(r["torch"].value("device", "")) << "</p>";
  o << "</section>\n";
  for (const json& op : r.value("operators", json::array())) {
    const std::string name = op.value("name", "");
    o << "<section class=\"operator\" id=\"op-" << html_escape(name) << "\"><h2>" << html_escape(name) << "</h2>";
    if (!op.value("description", "").empty())
      o << "<p class=\"hint\">" << html_escape(op.value("description", "")) << "</p>";
    o << "<table class=\"opcheck\"><tr><th>dtype</th><th>shape</th><th>implementation</th><th>output</th><th>max abs</th>"
         "<th>mean abs</th><th>max rel</th><th>ULP p50 / p99 / max</th><th>ULP histogram</th><th>result</th><th>median µs</th>"
         "<th>× "
      << html_escape(op.value("baseline", "")) << "</th></tr>\n";
    for (const json& row : op.value("rows", json::array())) {
      bool first = true;
      for (const json& impl : row.value("implementations", json::array())) {
        const bool ref = impl.value("role", "") == "reference";
        const std::string status = impl.value("status", "");
        const std::string time = fmt_num(impl.value("median_us", json(nullptr)), "{:.2f}");
        const std::string ratio = fmt_num(impl.value("ratio", json(nullptr)), "{:.2f}");
        json outs = json::array();
        for (const json& out : impl.value("outputs", json::array()))
          if (out.value("compared", true)) outs.push_back(out);
        auto lead = [&](std::size_t rows) {
          std::string s =
              first ? fmt::format(R"(<tr class="first" data-op="{}" data-impl="{}"><td>{}</td><td>{}</td>)",
                                  html_escape(name), html_escape(impl.value("name", "")),
                                  html_escape(row.value("dtype", "")), html_escape(row.value("shape_text", "")))
                    : fmt::format(R"(<tr data-op="{}" data-impl="{}"><td></td><td></td>)", html_escape(name),
                                  html_escape(impl.value("name", "")));
          first = false;
          const std::string role = impl.value("role", "");
          return s + fmt::format(R"(<td rowspan="{}">{}{}</td>)", rows, html_escape(impl.value("name", "")),
                                 ref                       ? " (reference)"
                                 : role == "informational" ? " (for comparison)"
                                                           : "");
        };
        if (ref || status != "ok" || outs.empty()) {
          const std::string res = ref ? (status == "ok" ? "" : status) : status;
          o << lead(1) << "<td colspan=\"6\">" << html_escape(impl.value("message", "")) << "</td><td class=\"res-"
            << html_escape(res) << "\">" << html_escape(res) << "</td><td class=\"num\">" << time
            << "</td><td class=\"num\">" << ratio << "</td></tr>\n";
          continue;
        }
        for (std::size_t q = 0; q < outs.size(); ++q) {
          const json& out = outs[q];
          const json ulp = out.value("ulp", json::object());
          const bool pass = out.value("pass", false);
          if (q == 0) o << lead(outs.size());
          else
            o << fmt::format(R"(<tr data-op="{}" data-impl="{}"><td></td><td></td>)", html_escape(name),
                             html_escape(impl.value("name", "")));
          o << "<td>" << html_escape(out.value("name", "")) << "</td><td class=\"num\">"
            << fmt_num(out.value("max_abs", json(nullptr))) << "</td><td class=\"num\">"
            << fmt_num(out.value("mean_abs", json(nullptr))) << "</td><td class=\"num\">"
            << fmt_num(out.value("max_rel", json(nullptr))) << "</td><td class=\"num\">"
            << fmt_num(ulp.value("p50", json(nullptr)), "{:.3g}") << " / "
            << fmt_num(ulp.value("p99", json(nullptr)), "{:.3g}") << " / "
            << fmt_num(ulp.value("max", json(nullptr)), "{:.3g}") << "</td><td>"
            << ulp_histogram(ulp.value("histogram", json::object())) << "</td><td class=\"res-"
            << (pass ? "pass\">PASS" : "fail\">FAIL") << "</td>";
          if (q == 0)
            o << "<td class=\"num\" rowspan=\"" << outs.size() << "\">" << time << "</td><td class=\"num\" rowspan=\""
              << outs.size() << "\">" << ratio << "</td>";
          o << "</tr>\n";
          if (!pass && out.contains("first_mismatch"))
            o << "<tr class=\"diag error\"><td colspan=\"12\">" << out.value("mismatches", 0) << " of "
              << out.value("elements", 0) << " elements outside the tolerance; first at index "
              << out["first_mismatch"].value("index", 0) << ": "
              << html_escape(fmt_num(out["first_mismatch"].value("got", json(nullptr)), "{:.9g}")) << " vs reference "
              << html_escape(fmt_num(out["first_mismatch"].value("reference", json(nullptr)), "{:.9g}"))
              << "</td></tr>\n";
        }
      }
    }
    o << "</table></section>\n";
  }
  return o.str();
}

std::string opcheck_to_html(const json& r) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    << "<title>Ferry opcheck: " << html_escape(r.value("spec", "")) << "</title><style>" << kStyle
    << "</style></head>\n<body>\n<header><h1>Ferry operator check</h1><div class=\"sub\">"
    << html_escape(r.value("spec", "")) << "</div></header>\n<main>\n"
    << opcheck_section(r) << "</main>\n</body></html>\n";
  return o.str();
}

}  // namespace ferry::report
