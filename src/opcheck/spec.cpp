#include "opcheck/spec.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/diagnostic.h"
#include "core/text.h"

namespace ferry::opcheck {
namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

// " [FRY9301]", the suffix of every spec error.
const std::string kCode = " [" + std::string(to_string(Diag::OpcheckBadSpec)) + "]";

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

// Where in the spec we are, for messages: "spec.json: operators[2] (rope).inputs[0]".
class Loc {
 public:
  Loc(std::string origin, std::string path) : origin_(std::move(origin)), path_(std::move(path)) {}
  [[nodiscard]] Loc operator/(const std::string& key) const {
    return {origin_, path_.empty() ? key : path_ + "." + key};
  }
  [[nodiscard]] Loc at(std::size_t i, const std::string& label = "") const {
    return {origin_, path_ + "[" + std::to_string(i) + "]" + (label.empty() ? "" : " (" + label + ")")};
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(origin_ + ": " + (path_.empty() ? "" : path_ + ": ") + what + kCode);
  }

 private:
  std::string origin_, path_;
};

const char* type_name(const ojson& j) {
  if (j.is_object()) return "an object";
  if (j.is_array()) return "a list";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_number()) return "a number";
  return "null";
}

void allow_keys(const ojson& j, const Loc& loc, const std::vector<std::string>& allowed) {
  for (const auto& [key, _] : j.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string best;
    std::size_t best_d = 3;
    for (const auto& a : allowed)
      if (const std::size_t d = edit_distance(key, a); d < best_d) best = a, best_d = d;
    loc.fail("unknown key '" + key + "'" + (best.empty() ? "" : "; did you mean '" + best + "'?") +
             " (allowed: " + join(allowed) + ")");
  }
}

const ojson& need(const ojson& j, const char* key, const Loc& loc) {
  if (!j.contains(key)) loc.fail(std::string("missing '") + key + "'");
  return j.at(key);
}

std::string get_string(const ojson& j, const Loc& loc) {
  if (!j.is_string()) loc.fail(std::string("must be a string, not ") + type_name(j));
  return j.get<std::string>();
}

double get_number(const ojson& j, const Loc& loc) {
  if (j.is_boolean()) return j.get<bool>() ? 1 : 0;
  if (!j.is_number()) loc.fail(std::string("must be a number, not ") + type_name(j));
  return j.get<double>();
}

std::int64_t get_int(const ojson& j, const Loc& loc, std::int64_t min) {
  if (!j.is_number_integer()) loc.fail(std::string("must be an integer, not ") + type_name(j));
  const auto v = j.get<std::int64_t>();
  if (v < min) loc.fail("must be at least " + std::to_string(min) + " (is " + std::to_string(v) + ")");
  return v;
}

const ojson& get_array(const ojson& j, const Loc& loc, bool nonempty = true) {
  if (!j.is_array()) loc.fail(std::string("must be a list, not ") + type_name(j));
  if (nonempty && j.empty()) loc.fail("must not be empty");
  return j;
}

const ojson& get_object(const ojson& j, const Loc& loc) {
  if (!j.is_object()) loc.fail(std::string("must be an object, not ") + type_name(j));
  return j;
}

DType get_dtype(const ojson& j, const Loc& loc) {
  const std::string s = get_string(j, loc);
  const auto t = parse_dtype(s);
  if (!t) loc.fail("unknown dtype '" + s + "' (fp32, fp16, bf16, fp64, int32, int64)");
  return *t;
}

ToleranceTable get_tolerances(const ojson& j, const Loc& loc) {
  ToleranceTable t;
  for (const auto& [key, v] : get_object(j, loc).items()) {
    const Loc l = loc / key;
    if (key != "default" && !parse_dtype(key))
      l.fail("tolerances are keyed by dtype (fp32, fp16, bf16, ...) or 'default'");
    allow_keys(get_object(v, l), l, {"rtol", "atol", "ulp"});
    Tolerance tol;
    if (v.contains("rtol")) tol.rtol = get_number(v["rtol"], l / "rtol");
    if (v.contains("atol")) tol.atol = get_number(v["atol"], l / "atol");
    if (v.contains("ulp")) tol.ulp = get_number(v["ulp"], l / "ulp");
    if (tol.rtol < 0 || tol.atol < 0 || (tol.ulp && *tol.ulp < 0)) l.fail("tolerances must not be negative");
    t.by_dtype[key == "default" ? key : std::string(dtype_name(*parse_dtype(key)))] = tol;
  }
  return t;
}

std::string expand_vars(const std::string& s, const std::map<std::string, std::string>& vars, const Loc& loc) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "${") != 0) {
      out += s[i++];
      continue;
    }
    const std::size_t end = s.find('}', i);
    if (end == std::string::npos) loc.fail("unterminated ${ in '" + s + "'");
    const std::string name = s.substr(i + 2, end - i - 2);
    if (const auto it = vars.find(name); it != vars.end()) out += it->second;
    else if (const char* env = std::getenv(name.c_str())) out += env;
    else loc.fail("variable ${" + name + "} is not set (give --var " + name + "=VALUE or set it in the environment)");
    i = end + 1;
  }
  return out;
}

struct Library {
  std::string path, prefix;
};

struct Context {
  std::string origin;
  fs::path base;
  std::map<std::string, std::string> vars;
  std::map<std::string, Library> libraries;
};

ImplSpec get_impl(const ojson& j, const Loc& loc, const Context& ctx, const std::string& op) {
  allow_keys(get_object(j, loc), loc,
             {"name", "library", "symbol", "torch", "setup", "upcast", "device", "outputs", "informational"});
  ImplSpec s;
  const bool lib = j.contains("library"), torch = j.contains("torch");
  if (lib == torch) loc.fail("an implementation has either 'library' (a shared library) or 'torch' (PyTorch code)");
  if (lib) {
    s.kind = ImplSpec::Kind::library;
    const std::string l = get_string(j["library"], loc / "library");
    std::string prefix;
    if (const auto it = ctx.libraries.find(l); it != ctx.libraries.end()) {
      s.library = it->second.path;
      prefix = it->second.prefix;
      s.name = l;
    } else if (l.find('/') != std::string::npos || l.ends_with(".so") || l.find(".so.") != std::string::npos) {
      fs::path p = expand_vars(l, ctx.vars, loc / "library");
      if (p.is_relative()) p = ctx.base / p;
      s.library = p.lexically_normal().string();
      s.name = fs::path(l).stem().string();
    } else {
      std::vector<std::string> known;
      for (const auto& [k, _] : ctx.libraries) known.push_back(k);
      (loc / "library")
          .fail("'" + l + "' is neither a key of 'libraries' (" + (known.empty() ? "none" : join(known)) +
                ") nor a path to a shared library");
    }
    if (j.contains("symbol")) s.symbol = get_string(j["symbol"], loc / "symbol");
    else if (!prefix.empty()) s.symbol = prefix + op;
    else loc.fail("missing 'symbol' (the C entry point; or give the library a 'prefix')");
    if (!is_identifier(s.symbol)) (loc / "symbol").fail("'" + s.symbol + "' is not a C identifier");
    for (const char* k : {"setup", "upcast", "device"})
      if (j.contains(k)) (loc / k).fail("only for 'torch' implementations");
  } else {
    s.kind = ImplSpec::Kind::torch;
    s.name = "torch";
    s.torch_code = get_string(j["torch"], loc / "torch");
    if (s.torch_code.empty()) (loc / "torch").fail("the code must not be empty");
    if (j.contains("setup")) s.torch_setup = get_string(j["setup"], loc / "setup");
    if (j.contains("upcast")) {
      s.upcast = get_dtype(j["upcast"], loc / "upcast");
      if (*s.upcast != DType::f32 && *s.upcast != DType::f64) (loc / "upcast").fail("upcast to fp32 or fp64");
    }
    if (j.contains("device")) {
      s.device = get_string(j["device"], loc / "device");
      if (s.device != "auto" && s.device != "cuda" && s.device != "cpu") (loc / "device").fail("auto, cuda or cpu");
    }
    if (j.contains("symbol")) (loc / "symbol").fail("only for 'library' implementations");
  }
  if (j.contains("informational")) {
    if (!j["informational"].is_boolean()) (loc / "informational").fail("must be true or false");
    s.informational = j["informational"].get<bool>();
  }
  if (j.contains("outputs")) {
    const ojson& a = get_array(j["outputs"], loc / "outputs");
    for (std::size_t i = 0; i < a.size(); ++i) s.outputs.push_back(get_string(a[i], (loc / "outputs").at(i)));
  }
  if (j.contains("name")) s.name = get_string(j["name"], loc / "name");
  if (!is_identifier(s.name) && s.name.find_first_of(" \t/") != std::string::npos)
    (loc / "name").fail("no blanks or slashes");
  return s;
}

Init parse_init(const std::string& text, const Loc& loc, const std::set<std::string>& names) {
  Init init;
  init.text = text;
  const std::size_t open = text.find('(');
  const std::string kind = text.substr(0, open);
  static const std::vector<std::pair<std::string, std::pair<Init::Kind, std::size_t>>> kinds = {
      {"uniform", {Init::Kind::uniform, 2}},
      {"normal", {Init::Kind::normal, 2}},
      {"randint", {Init::Kind::randint, 2}},
      {"arange", {Init::Kind::arange, 0}},
      {"constant", {Init::Kind::constant, 1}}};
  const auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == kind; });
  if (it == kinds.end())
    loc.fail("unknown init '" + text + "' (uniform(lo, hi), normal(mean, std), randint(lo, hi), arange, constant(v))");
  init.kind = it->second.first;
  if (open != std::string::npos) {
    if (text.back() != ')') loc.fail("'" + text + "': missing ')'");
    std::stringstream args(text.substr(open + 1, text.size() - open - 2));
    for (std::string a; std::getline(args, a, ',');) {
      a.erase(0, a.find_first_not_of(" \t"));
      a.erase(a.find_last_not_of(" \t") + 1);
      if (a.empty()) loc.fail("'" + text + "': empty argument");
      char* end = nullptr;
      std::strtod(a.c_str(), &end);
      if (*end != '\0' && !names.contains(a))
        loc.fail("'" + text + "': '" + a + "' is neither a number nor a dimension or attr of this operator");
      init.args.push_back(a);
    }
  }
  if (init.args.size() != it->second.second)
    loc.fail("'" + text + "' takes " + std::to_string(it->second.second) + " argument(s)");
  return init;
}

TensorSpec get_tensor(const ojson& j, const Loc& loc, bool input, const std::set<std::string>& dims,
                      const std::set<std::string>& init_names) {
  allow_keys(get_object(j, loc), loc,
             input ? std::vector<std::string>{"name", "shape", "dtype", "init"}
                   : std::vector<std::string>{"name", "shape", "dtype", "tolerances"});
  TensorSpec t;
  t.name = get_string(need(j, "name", loc), loc / "name");
  if (!is_identifier(t.name)) (loc / "name").fail("'" + t.name + "' is not an identifier (the torch code uses it)");
  const Loc sl = loc / "shape";
  const ojson& shape = get_array(need(j, "shape", loc), sl, false);
  if (shape.size() > 8) sl.fail("at most 8 dimensions");
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i].is_number_integer()) t.shape.push_back(std::to_string(get_int(shape[i], sl.at(i), 1)));
    else {
      const std::string d = get_string(shape[i], sl.at(i));
      if (!dims.contains(d)) {
        std::vector<std::string> have(dims.begin(), dims.end());
        sl.at(i).fail("unknown dimension '" + d + "' (the shapes define " + (have.empty() ? "none" : join(have)) + ")");
      }
      t.shape.push_back(d);
    }
  }
  if (j.contains("dtype")) t.dtype = get_dtype(j["dtype"], loc / "dtype");
  if (input)
    t.init = parse_init(j.contains("init") ? get_string(j["init"], loc / "init") : "uniform(-1, 1)", loc / "init",
                        init_names);
  if (!input && j.contains("tolerances")) t.tolerances = get_tolerances(j["tolerances"], loc / "tolerances");
  return t;
}

std::vector<std::uint64_t> get_seeds(const ojson& j, const Loc& loc) {
  std::vector<std::uint64_t> s;
  const ojson& a = get_array(j, loc);
  for (std::size_t i = 0; i < a.size(); ++i) s.push_back(static_cast<std::uint64_t>(get_int(a[i], loc.at(i), 0)));
  return s;
}

std::vector<DType> get_dtypes(const ojson& j, const Loc& loc) {
  std::vector<DType> d;
  const ojson& a = get_array(j, loc);
  for (std::size_t i = 0; i < a.size(); ++i) d.push_back(get_dtype(a[i], loc.at(i)));
  return d;
}

OperatorSpec get_operator(const ojson& j, const Loc& at, const ojson& defaults, const Context& ctx) {
  const Loc loc = at;
  allow_keys(get_object(j, loc), loc,
             {"name", "description", "inputs", "outputs", "attrs", "shapes", "dtypes", "seeds", "reference",
              "candidates", "baseline", "tolerances", "warmup", "repeats"});
  OperatorSpec op;
  op.name = get_string(need(j, "name", loc), loc / "name");
  if (op.name.empty() || op.name.find_first_of(" \t/") != std::string::npos)
    (loc / "name").fail("a non-empty name without blanks");
  if (j.contains("description")) op.description = get_string(j["description"], loc / "description");
  // an operator's value, else the defaults'
  auto pick = [&](const char* key) -> const ojson* {
    if (j.contains(key)) return &j[key];
    if (defaults.contains(key)) return &defaults[key];
    return nullptr;
  };
  auto where = [&](const char* key) { return j.contains(key) ? loc / key : Loc(ctx.origin, "defaults") / key; };

  const ojson& shapes = get_array(need(j, "shapes", loc), loc / "shapes");
  std::set<std::string> dims;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const Loc sl = (loc / "shapes").at(i);
    std::vector<std::pair<std::string, std::int64_t>> s;
    std::set<std::string> these;
    for (const auto& [k, v] : get_object(shapes[i], sl).items()) {
      if (!is_identifier(k)) sl.fail("'" + k + "' is not a dimension name");
      s.emplace_back(k, get_int(v, sl / k, 1));
      these.insert(k);
    }
    if (i == 0) dims = these;
    else if (these != dims) {
      std::vector<std::string> a(dims.begin(), dims.end()), b(these.begin(), these.end());
      sl.fail("defines " + join(b) + " but shapes[0] defines " + join(a) + ": every shape names the same dimensions");
    }
    op.shapes.push_back(std::move(s));
  }
  if (j.contains("attrs"))
    for (const auto& [k, v] : get_object(j["attrs"], loc / "attrs").items()) {
      if (!is_identifier(k)) (loc / "attrs").fail("'" + k + "' is not an identifier");
      if (dims.contains(k)) (loc / "attrs" / k).fail("a shape dimension of the same name exists");
      op.attrs.emplace_back(k, get_number(v, loc / "attrs" / k));
    }
  std::set<std::string> init_names = dims;
  for (const auto& [k, _] : op.attrs) init_names.insert(k);

  std::set<std::string> tensor_names;
  for (const auto& [key, input] : {std::pair{"inputs", true}, std::pair{"outputs", false}}) {
    const Loc tl = loc / key;
    const ojson& a = get_array(need(j, key, loc), tl);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string label =
          a[i].is_object() && a[i].contains("name") && a[i]["name"].is_string() ? a[i]["name"].get<std::string>() : "";
      TensorSpec t = get_tensor(a[i], tl.at(i, label), input, dims, init_names);
      if (!tensor_names.insert(t.name).second) tl.at(i, label).fail("a tensor named '" + t.name + "' exists already");
      if (init_names.contains(t.name)) tl.at(i, label).fail("'" + t.name + "' is also a dimension or attr name");
      (input ? op.inputs : op.outputs).push_back(std::move(t));
    }
  }
  const ojson* dt = pick("dtypes");
  if (!dt) loc.fail("missing 'dtypes' (here or in 'defaults')");
  op.dtypes = get_dtypes(*dt, where("dtypes"));
  const ojson* seeds = pick("seeds");
  op.seeds = seeds ? get_seeds(*seeds, where("seeds")) : std::vector<std::uint64_t>{1};
  if (const ojson* t = pick("tolerances")) op.tolerances = get_tolerances(*t, where("tolerances"));
  if (const ojson* w = pick("warmup")) op.warmup = static_cast<int>(get_int(*w, where("warmup"), 0));
  if (const ojson* r = pick("repeats")) op.repeats = static_cast<int>(get_int(*r, where("repeats"), 1));

  const ojson* ref = pick("reference");
  if (!ref) loc.fail("missing 'reference' (here or in 'defaults')");
  op.reference = get_impl(*ref, where("reference"), ctx, op.name);
  auto check_outputs = [&](const ImplSpec& impl, const Loc& l) {
    for (std::size_t i = 0; i < impl.outputs.size(); ++i)
      if (std::none_of(op.outputs.begin(), op.outputs.end(),
                       [&](const TensorSpec& t) { return t.name == impl.outputs[i]; }))
        (l / "outputs").at(i).fail("'" + impl.outputs[i] + "' is not an output of this operator");
  };
  check_outputs(op.reference, where("reference"));
  if (!op.reference.outputs.empty())
    where("reference").fail("the reference computes every output ('outputs' is for candidates)");
  if (op.reference.informational) where("reference").fail("'informational' is for candidates");
  const ojson* cands = pick("candidates");
  if (!cands) loc.fail("missing 'candidates' (here or in 'defaults')");
  const Loc cl = where("candidates");
  const ojson& ca = get_array(*cands, cl);
  std::set<std::string> impl_names{op.reference.name};
  for (std::size_t i = 0; i < ca.size(); ++i) {
    ImplSpec c = get_impl(ca[i], cl.at(i), ctx, op.name);
    check_outputs(c, cl.at(i));
    if (!impl_names.insert(c.name).second)
      cl.at(i).fail("two implementations are named '" + c.name + "' (give one a 'name')");
    op.candidates.push_back(std::move(c));
  }
  if (const ojson* b = pick("baseline")) {
    op.baseline = get_string(*b, where("baseline"));
    if (!impl_names.contains(op.baseline)) {
      std::vector<std::string> have(impl_names.begin(), impl_names.end());
      where("baseline").fail("'" + op.baseline + "' names no implementation of this operator (" + join(have) + ")");
    }
  } else {
    op.baseline = op.reference.name;
  }
  return op;
}

}  // namespace

Tolerance ToleranceTable::for_dtype(DType t) const {
  if (const auto it = by_dtype.find(std::string(dtype_name(t))); it != by_dtype.end()) return it->second;
  if (const auto it = by_dtype.find("default"); it != by_dtype.end()) return it->second;
  return {};
}

Spec parse_spec(const std::string& text, const std::string& origin, const fs::path& base,
                const std::map<std::string, std::string>& vars) {
  ojson j;
  try {
    j = ojson::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::invalid_argument(origin + ": not valid JSON: " + e.what() + kCode);
  }
  const Loc root(origin, "");
  if (!j.is_object()) root.fail("the spec must be a JSON object");
  allow_keys(j, root, {"name", "description", "libraries", "defaults", "operators"});
  Context ctx{origin, base, vars, {}};
  Spec spec;
  spec.path = origin;
  if (j.contains("name")) spec.name = get_string(j["name"], root / "name");
  if (j.contains("libraries"))
    for (const auto& [key, v] : get_object(j["libraries"], root / "libraries").items()) {
      const Loc l = root / "libraries" / key;
      Library lib;
      std::string path;
      if (v.is_string()) path = v.get<std::string>();
      else {
        allow_keys(get_object(v, l), l, {"path", "prefix"});
        path = get_string(need(v, "path", l), l / "path");
        if (v.contains("prefix")) lib.prefix = get_string(v["prefix"], l / "prefix");
      }
      fs::path p = expand_vars(path, vars, l);
      if (p.is_relative()) p = base / p;
      lib.path = p.lexically_normal().string();
      ctx.libraries[key] = lib;
    }
  ojson defaults = ojson::object();
  if (j.contains("defaults")) {
    defaults = get_object(j["defaults"], root / "defaults");
    allow_keys(defaults, root / "defaults",
               {"dtypes", "seeds", "reference", "candidates", "baseline", "tolerances", "warmup", "repeats"});
  }
  const ojson& ops = get_array(need(j, "operators", root), root / "operators");
  std::set<std::string> names;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const std::string label = ops[i].is_object() && ops[i].contains("name") && ops[i]["name"].is_string()
                                  ? ops[i]["name"].get<std::string>()
                                  : "";
    const Loc loc = (root / "operators").at(i, label);
    OperatorSpec op = get_operator(ops[i], loc, defaults, ctx);
    if (!names.insert(op.name).second) loc.fail("operator '" + op.name + "' appears twice");
    spec.operators.push_back(std::move(op));
  }
  return spec;
}

Spec load_spec(const fs::path& file, const std::map<std::string, std::string>& vars) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::invalid_argument(file.string() + ": cannot read the spec file" + kCode);
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_spec(ss.str(), file.string(), fs::absolute(file).parent_path(), vars);
}

}  // namespace ferry::opcheck
