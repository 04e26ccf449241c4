// core/diagnostics.def and docs/diagnostics.md agree: every code of the table has its heading in
// the docs (alone, "### FRY2201 — title (severity)", or in a range, "### FRY5001–FRY5005 — ..."),
// at the anchor the table names; the docs mention no code the table lacks; the rule tables in
// rules/ mention no unknown code either.
#include "core/diagnostic.h"
#include "report/sarif.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace ferry {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const fs::path kRoot = fs::path(FERRY_TEST_DATA).parent_path();

struct DocHeading {
  std::string heading;   // the text after the hashes
  std::string title;     // after the dash, without backticks and the trailing "(severity)"
  std::string severity;  // inside the trailing parentheses ("warning", "cuda target, warning")
  bool range = false;
};

// Code number -> the heading that documents it.
std::map<unsigned, DocHeading> doc_headings(const std::string& md) {
  std::map<unsigned, DocHeading> out;
  const std::regex heading(R"(^#{2,} (FRY(\d{4})(?:–FRY(\d{4}))?\b.*)$)");
  std::istringstream in(md);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, heading)) continue;
    DocHeading h;
    h.heading = m[1];
    h.range = m[3].matched;
    std::string t = h.heading;
    if (const auto dash = t.find("—"); dash != std::string::npos) t = t.substr(dash + std::string("—").size());
    while (!t.empty() && t.front() == ' ') t.erase(0, 1);
    if (const auto paren = t.rfind(" ("); paren != std::string::npos && t.back() == ')') {
      h.severity = t.substr(paren + 2, t.size() - paren - 3);
      t.erase(paren);
    }
    for (const char c : t)
      if (c != '`') h.title += c;
    const unsigned lo = std::stoul(m[2]);
    const unsigned hi = h.range ? std::stoul(m[3]) : lo;
    for (unsigned c = lo; c <= hi; ++c) {
      EXPECT_FALSE(out.contains(c)) << "FRY" << c << " has two headings in docs/diagnostics.md";
      out[c] = h;
    }
  }
  return out;
}

TEST(DiagnosticsTable, EveryCodeIsDocumentedAtItsAnchor) {
  const auto docs = doc_headings(read(kRoot / "docs" / "diagnostics.md"));
  ASSERT_FALSE(docs.empty()) << "no FRY headings found in docs/diagnostics.md";
  for (const DiagInfo& d : diagnostic_table()) {
    const auto it = docs.find(static_cast<unsigned>(d.code));
    if (it == docs.end()) {
      ADD_FAILURE() << d.id << " (" << d.title << ") has no heading in docs/diagnostics.md";
      continue;
    }
    const DocHeading& h = it->second;
    EXPECT_EQ(d.anchor, report::heading_anchor(h.heading)) << d.id << ": anchor in core/diagnostics.def";
    if (h.range) continue;  // a range heading has one title for several codes
    EXPECT_TRUE(d.title.starts_with(h.title))
        << d.id << ": title '" << d.title << "' does not start with the docs title '" << h.title << "'";
    EXPECT_NE(h.severity.find(to_string(d.severity)), std::string::npos)
        << d.id << ": severity " << to_string(d.severity) << " not in the docs heading '(" << h.severity << ")'";
  }
}

TEST(DiagnosticsTable, DocsAndRulesNameNoUnknownCode) {
  std::set<std::string> known;
  for (const DiagInfo& d : diagnostic_table()) known.emplace(d.id);
  std::vector<fs::path> files = {kRoot / "docs" / "diagnostics.md"};
  for (const auto& e : fs::recursive_directory_iterator(kRoot / "rules"))
    if (e.path().extension() == ".tsv") files.push_back(e.path());
  const std::regex code(R"(FRY\d{4})");
  for (const fs::path& f : files) {
    const std::string text = read(f);
    for (std::sregex_iterator it(text.begin(), text.end(), code), end; it != end; ++it)
      EXPECT_TRUE(known.contains(it->str()))
          << f.filename().string() << " mentions " << it->str() << ", which core/diagnostics.def does not define";
  }
}

TEST(DiagnosticsTable, LookupsRoundTrip) {
  for (const DiagInfo& d : diagnostic_table()) {
    EXPECT_EQ(&info(d.code), &d);
    EXPECT_EQ(parse_diag(d.id), d.code);
    EXPECT_EQ(d.id, "FRY" + std::to_string(static_cast<unsigned>(d.code)));
    EXPECT_FALSE(d.title.empty()) << d.id;
  }
  EXPECT_EQ(to_string(Diag::LaneId32), "FRY2201");
  EXPECT_FALSE(parse_diag("FRY0000").has_value());
  EXPECT_FALSE(parse_diag("FRY22010").has_value());
  EXPECT_FALSE(parse_diag("").has_value());
}

TEST(DiagnosticsTable, FormatPrintsTheCode) {
  const Diagnostic d{Diag::LaneId32, Severity::Warning, "k.cu", 3, 7, "lane id", "use warpSize"};
  EXPECT_EQ(d.format(), "k.cu:3:7: warning: lane id [FRY2201]\n    hint: use warpSize");
}

}  // namespace
}  // namespace ferry
