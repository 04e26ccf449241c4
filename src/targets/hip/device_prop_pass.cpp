// Members of cudaDeviceProp that hipDeviceProp_t gained in ROCm 6.0 (asyncEngineCount,
// unifiedAddressing, sharedMemPerBlockOptin, ...; rules/hip_members.tsv). For an older target
// release, a read of such a member of a variable the file declares as a device-properties struct
// goes through the device attribute HIP already has, from compat header device_prop.h:
//   prop.asyncEngineCount            ->  ferry_device_attribute(prop, hipDeviceAttributeAsyncEngineCount)
//   p->sharedMemPerBlockOptin        ->  static_cast<size_t>(ferry_device_attribute(*p,
//   hipDeviceAttributeSharedMemPerBlockOptin)) props[d].unifiedAddressing       ->  ferry_device_attribute(props[d],
//   hipDeviceAttributeUnifiedAddressing)
// A member without such an attribute (an array such as maxTexture1DLayered, uuid; hipMemAllocationProp's
// allocFlags before ROCm 5.3 where rules/member_renames.tsv has no spelling for it), or one that is
// written, keeps its text and gets FRY1301, so the output never holds an unreported name HIP lacks.
// Only the punctuation and the call around the object are written: the object's own tokens stay
// for the rules (`props[cudaCpuDeviceId]`).
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

bool is_type_name(const migrate::FileMigration& file, std::size_t ci, const std::vector<std::string>& type_names) {
  for (const std::string& t : type_names)
    if (file.is(ci, t)) return !file.is_member_or_qualified(ci);
  return false;
}

// Names the file declares with one of `type_names`: `cudaDeviceProp prop;`, `const cudaDeviceProp &p`,
// `cudaDeviceProp *props = ...`, `cudaDeviceProp a, b[4];`.
std::unordered_set<std::string_view> declared_names(const migrate::FileMigration& file,
                                                    const std::vector<std::string>& type_names) {
  std::unordered_set<std::string_view> names;
  const std::vector<std::string_view> wanted(type_names.begin(), type_names.end());
  for (const std::size_t ci : file.occurrences(wanted)) {  // the type names' occurrences, in file order
    if (ci + 1 >= file.code_size() || !is_type_name(file, ci, type_names)) continue;
    std::size_t j = ci + 1;
    for (;;) {
      while (file.is(j, "*") || file.is(j, "&") || file.is(j, "const") || file.is(j, "__restrict__")) ++j;
      if (!file.is_identifier(j)) break;
      const std::string_view next = file.text(j + 1);
      if (!(next == ";" || next == "," || next == ")" || next == "=" || next == "[" || next == "{")) break;
      names.insert(file.text(j));
      // `a[8] = {...}, b`: the next declarator, only where the declaration is a statement (not a
      // parameter list)
      if (ci > 0 && (file.is(ci - 1, "(") || file.is(ci - 1, ","))) break;
      std::size_t k = j + 1;
      while (k < file.code_size() && !file.is(k, ",") && !file.is(k, ";") && !file.is(k, ")")) {
        const std::size_t p = file.match_bracket(k);
        k = (p != migrate::npos && p > k) ? p + 1 : k + 1;
      }
      if (!file.is(k, ",")) break;
      j = k + 1;
    }
  }
  return names;
}

bool is_assignment(std::string_view t) {
  return t == "=" || t == "+=" || t == "-=" || t == "*=" || t == "/=" || t == "%=" || t == "&=" || t == "|=" ||
         t == "^=" || t == "<<=" || t == ">>=" || t == "++" || t == "--";
}

}  // namespace

void device_prop_pass(migrate::FileMigration& file, const std::vector<DevicePropMember>& members,
                      std::string_view release) {
  if (members.empty()) return;
  std::unordered_multimap<std::string_view, const DevicePropMember*> by_name;
  for (const DevicePropMember& m : members) by_name.emplace(m.member, &m);
  // The names declared with each struct type, read once per type on its first member access.
  std::unordered_map<std::string_view, std::unordered_set<std::string_view>> names_of;
  // Only the members' own names: their occurrences, in file order.
  std::vector<std::string_view> member_names;
  for (const DevicePropMember& m : members) member_names.push_back(m.member);
  for (const std::size_t ci : file.occurrences(member_names)) {
    if (ci < 2 || !file.is_identifier(ci) || !(file.is(ci - 1, ".") || file.is(ci - 1, "->"))) continue;
    const auto [first, end] = by_name.equal_range(file.text(ci));
    if (first == end || file.excluded(ci) || file.touched(ci) || file.code(ci).in_directive) continue;
    // The object: NAME or NAME[...], NAME not itself a member or qualified.
    std::size_t s = ci - 2;
    if (file.is(s, "]")) {
      const std::size_t open = file.partner(s);
      if (open == migrate::npos || open == 0) continue;
      s = open - 1;
    }
    if (!file.is_identifier(s) || file.is_member_or_qualified(s)) continue;
    const DevicePropMember* found = nullptr;
    for (auto it = first; it != end && !found; ++it) {
      const DevicePropMember& m = *it->second;
      auto known = names_of.find(m.type);
      if (known == names_of.end()) known = names_of.emplace(m.type, declared_names(file, m.type_names)).first;
      if (known->second.contains(file.text(s))) found = &m;
    }
    if (!found) continue;
    const DevicePropMember& m = *found;
    const bool arrow = file.is(ci - 1, "->");
    const bool written =
        is_assignment(file.text(ci + 1)) || (s > 0 && (file.is(s - 1, "++") || file.is(s - 1, "--"))) ||
        (s > 0 && file.is(s - 1, "&") &&
         !(s > 1 &&
           ((file.is_identifier(s - 2) && !file.is(s - 2, "return")) || file.is(s - 2, ")") || file.is(s - 2, "]"))));
    if (m.attribute.empty() || written) {
      const bool props = m.type == "hipDeviceProp_t";
      file.diag(Diag::ReleaseLacksName, ci,
                m.type + "::" + m.member + " is in HIP from ROCm " + m.since + "; " + std::string(release) +
                    " lacks it" + (written ? " (and the member is written here)" : "") + "; left unchanged",
                m.attribute.empty() && props
                    ? "read it with hipDeviceGetAttribute where HIP has an attribute for it, or target ROCm " +
                          m.since + " or later (--hip-version)"
                    : "target ROCm " + m.since + " or later (--hip-version)" +
                          (props ? "" : ", or leave the member out where the release has no counterpart"));
      continue;
    }
    const bool cast = m.cuda_type != "int";
    std::string open = cast ? "static_cast<" + m.cuda_type + ">(ferry_device_attribute(" : "ferry_device_attribute(";
    if (arrow) open += "*";
    // The member first: an insertion at the object's start does not collide with other edits.
    if (!file.replace(ci - 1, ci, ", " + m.attribute + (cast ? "))" : ")"))) continue;
    file.insert_before(s, open);
    file.count_converted("runtime");
    file.require_compat("device_prop", "ferry_device_attribute", ci);
  }
}

}  // namespace ferry::targets::hip
