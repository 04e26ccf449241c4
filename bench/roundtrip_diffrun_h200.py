#!/usr/bin/env python3
"""The H200 run of issue #28: every self-checking program of the HIP corpora, migrated HIP -> CUDA
by Ferry (and the CUDA -> HIP -> CUDA round trip of the CUDA samples), built with nvcc and run on an
NVIDIA GPU. The verdict comes from the program's own check: its exit status and its PASS/FAIL lines.

Two phases, so that the GPU machine needs neither Ferry nor its shared libraries:

    roundtrip_diffrun_h200.py prepare DEST [--re ROCM_EXAMPLES] [--he HIP_EXAMPLES]
                                           [--cs CUDA_SAMPLES] [--bs BABELSTREAM] [--mb MINIBUDE]
                                           [--hp HIP_PROGRAMMING] [--ht HIP_TESTS] [--limit-mb 60]
        here: migrates each tree with $FERRY (default build/ferry), copies the migrated trees, less
        what no build needs (Visual Studio files, docs, Docker files, Ferry's state, large data),
        to DEST/<tree> with a manifest (DEST/manifest.json: one entry per program, with how to
        build it) and a copy of this script. An absent tree is skipped with a note. Trees of the
        UoB-HPC layout (BabelStream, miniBUDE: src/main.cpp, one folder per programming model
        with its model.cmake) give one program, the HIP model (src/main.cpp + src/hip/*, -DHIP).
        An exercise (NAME.cpp beside a solution/ or solutions/ folder holding NAME.cpp, as in
        csc-training/hip-programming) is left out: it is incomplete by design; its solution runs.

    roundtrip_diffrun_h200.py run OUT DEST [--jobs 16] [--timeout 40] [--budget 520] [--only RE]
        on the GPU machine: builds every program in parallel with nvcc -arch=sm_90 (through
        NVCC_APPEND_FLAGS) -- with the program's own migrated Makefile where it has one, else by
        compiling the units of its folder with the flags its CMakeLists.txt names -- then runs
        each with a timeout, in its folder. Without a GPU (no nvidia-smi) it builds only, so the
        build phase can be tested anywhere nvcc is. Writes OUT/results.json, OUT/table.md and
        OUT/logs.tgz (build and run logs). Stops starting work when the budget (seconds) is spent.
        A program that needs arguments, a launcher (mpirun) or a longer time limit has a row in
        bench/data/hip2cuda_programs.tsv (copied into DEST); those with a limit of their own start
        first and run in --long-jobs slots of their own. Units that include <mpi.h> build with the
        run machine's `mpicxx --showme` flags.

Verdicts: PASS (exit 0, no failure line), FAIL (non-zero exit or a failure line), WAIVED (exit 2,
the CUDA samples' EXIT_WAIVED), TIMEOUT, BUILD-FAIL, BUILT (no GPU), NOT-RUN (budget spent).
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FERRY = os.environ.get("FERRY", str(ROOT / "build" / "ferry"))
UNIT_EXT = {".cu", ".cpp", ".cc", ".cxx", ".hip", ".c"}
MAIN = re.compile(r"^\s*(?:int|auto)\s+main\s*\(", re.M)
FAIL = re.compile(r"\bFAIL(?:ED|URE)?\b|(?i:\b(?:validation|verification|test|check|comparison)s?\s+failed\b)"
                  r"|(?i:\bmismatch(?:es)?\b(?!\s*[:=]?\s*0\b))|(?i:\bresult\s*=\s*fail)")
SKIP_DIRS = {".ferry", "Docs", "Dockerfiles", ".git", ".github", "Scripts", "LLVM_ASAN"}
SKIP_EXT = {".sln", ".vcxproj", ".filters", ".md", ".png", ".jpg", ".svg", ".pdf", ".user", ".props", ".rc",
            ".ico", ".vcproj"}
PROGRAMS_TSV = ROOT / "bench" / "data" / "hip2cuda_programs.tsv"  # arguments, launcher, time limit per program
KEEP_DATA_MAX = 3 * 1024 * 1024  # a data file larger than this is left behind (the program reports it missing)
LIBS = [  # include -> link library, for the units fallback
    (r"cublas", "-lcublas"), (r"cublasLt", "-lcublasLt"), (r"cufft", "-lcufft"), (r"curand\.h|curand_kernel\.h(?!.)", "-lcurand"),
    (r"cusparse", "-lcusparse"), (r"cusolver", "-lcusolver"), (r"nvrtc", "-lnvrtc"), (r"(?<!\w)cuda\.h[>\"]", "-lcuda"),
    (r"nvjpeg", "-lnvjpeg"), (r"npp", "-lnppc -lnppisu -lnppif -lnppig -lnppial -lnppist -lnppicc -lnppidei"),
    (r"cudla", "-lcudla"), (r"nvJitLink", "-lnvJitLink"), (r"GL/|glut|GLFW", "-lGL -lGLU -lglut"),
    (r"gtest/gtest\.h", "-lgtest -lpthread"), (r"benchmark/benchmark\.h", "-lbenchmark -lpthread"),
    (r"(?<![\w/])mpi\.h[>\"]", "@mpi"),  # the run machine's `mpicxx --showme` flags, expanded there
]
# --test-libs: what prepare copies from this machine's Debian packages (libgtest-dev, libbenchmark-dev)
# to DEST/extra, for programs whose tests or benchmarks use them (rocm-examples' reduction tutorial).
TEST_LIBS = {"include": ["/usr/include/gtest", "/usr/include/benchmark"],
             "lib": ["/usr/lib/x86_64-linux-gnu/libgtest.a", "/usr/lib/x86_64-linux-gnu/libbenchmark.so",
                     "/usr/lib/x86_64-linux-gnu/libbenchmark.so.1debian"]}
CMAKE_LIBS = {"cublas": "-lcublas", "cublasLt": "-lcublasLt", "cufft": "-lcufft", "curand": "-lcurand",
              "cusparse": "-lcusparse", "cusolver": "-lcusolver", "nvrtc": "-lnvrtc", "cuda_driver": "-lcuda",
              "nvJitLink": "-lnvJitLink", "nvjpeg": "-lnvjpeg", "cudadevrt": "-lcudadevrt", "nppc": "-lnppc"}


# ---------------------------------------------------------------------------------------------- prepare

def migrate(src: Path, out: Path, frm: str, to: str) -> None:
    cmd = [FERRY, "migrate", str(src), "--from", frm, "--to", to, "-o", str(out), "--force", "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if p.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr[-1500:]}")


def copy_tree(src: Path, dst: Path) -> int:
    total = 0
    # A UoB-HPC model tree needs its sources and its input decks only (miniBUDE's makedeck/raw
    # holds 100 MB of molecule files that only the deck generator reads).
    model = (src / "src" / "main.cpp").is_file() and (src / "src" / "hip" / "model.cmake").is_file()
    for p in sorted(src.rglob("*")):
        rel = p.relative_to(src)
        if any(part in SKIP_DIRS for part in rel.parts) or not p.is_file() or p.is_symlink():
            continue
        if model and len(rel.parts) > 1 and rel.parts[0] not in ("src", "data"):
            continue
        if p.suffix.lower() in SKIP_EXT or p.name.endswith(".vcxproj.filters"):
            continue
        size = p.stat().st_size
        if size > KEEP_DATA_MAX:
            continue
        q = dst / rel
        q.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(p, q)
        total += size
    return total


def read(p: Path) -> str:
    try:
        return p.read_text(errors="replace")
    except OSError:
        return ""


def cmake_flags(folder: Path):
    """What the folder's CMakeLists.txt asks of nvcc: the language standard, device lambdas,
    relocatable device code, the libraries it links, its include folders and definitions."""
    text = read(folder / "CMakeLists.txt")
    flags, libs = [], []
    std = re.findall(r"CMAKE_\$?\{?\w*\}?_?STANDARD\s+(\d\d)|c(?:xx|uda|\+\+)_std_(\d\d)", text)
    stds = [int(a or b) for a, b in std if (a or b)]
    flags.append(f"-std=c++{max(stds) if stds else 17}")
    for f in ("--extended-lambda", "--expt-relaxed-constexpr"):
        if f in text:
            flags.append(f)
    if re.search(r"CUDA_SEPARABLE_COMPILATION\s+ON|-rdc=true", text):
        flags.append("-rdc=true")
        libs.append("-lcudadevrt")
    for name in re.findall(r"CUDA::(\w+)", text):
        lib = CMAKE_LIBS.get(name.replace("_static", ""))
        if lib and lib not in libs:
            libs.append(lib)
    for inc in re.findall(r"include_directories\(\s*(?:PRIVATE|PUBLIC)?\s*([^)$\s]+)", text):
        flags.append("-I" + inc)
    for d in re.findall(r"add_compile_definitions\(\s*([^)]+)\)", text):
        flags += ["-D" + x for x in d.split() if "$" not in x]
    return flags, libs


def code_object_steps(folder: Path):
    """The migrated CMakeLists.txt's nvcc steps that make a code object the program loads at run
    time (hip-tests' module_api: `COMMAND nvcc -x cu -arch=sm_90 --fatbin k.cpp -o k.code`, which
    Ferry wrote for `${HIP_HIPCC_EXECUTABLE} --genco`): run in the folder before the build."""
    steps = []
    for m in re.finditer(r"COMMAND\s+(nvcc\b[^\n)]*?--fatbin[^\n)]*)", read(folder / "CMakeLists.txt")):
        words = m.group(1).replace("${CMAKE_CURRENT_SOURCE_DIR}/", "").replace("${CMAKE_CURRENT_SOURCE_DIR}", ".")
        words = words.split()
        for stop in ("COMMENT", "DEPENDS", "VERBATIM", "WORKING_DIRECTORY", "BYPRODUCTS"):
            if stop in words:
                words = words[:words.index(stop)]
        if "$" not in " ".join(words):
            steps.append(words)
    return steps


def guess_libs(texts):
    libs = []
    for pat, lib in LIBS:
        if any(re.search(r"#\s*include\s*[<\"][^>\"]*(?:" + pat + ")", t) for t in texts):
            libs += [x for x in lib.split() if x not in libs]
    return libs


def make_target(mk: str):
    """The executable a Makefile builds: the value of EXAMPLE/EXECUTABLE/TARGET/EXE when a rule
    names it (so that `all: $(EXECUTABLE) test` does not run the program at build time)."""
    for var in ("EXECUTABLE", "EXAMPLE", "TARGET", "EXE", "BIN"):
        m = re.search(rf"^{var}\s*[:?]?=\s*(\S+)\s*$", mk, re.M)
        if m and "$" not in m.group(1) and re.search(rf"^\$\({var}\)\s*:", mk, re.M):
            return m.group(1)
    return None


HIP_API = re.compile(r"\bhip[A-Z]\w*\s*\(|hip/hip_runtime|hipLaunchKernelGGL|\bhip(?:blas|fft|solver|cub|rand|sparse)|"
                     r"\broc(?:blas|fft|solver|prim|rand|sparse|thrust|wmma)\b|rocthrust|thrust/")


def not_hip(original: Path) -> bool:
    """A CUDA, OpenCL, OpenMP or plain C variant kept beside the HIP port."""
    text = read(original)
    if HIP_API.search(text):
        return False
    return original.suffix in {".cu", ".c"} or bool(re.search(r"CL/cl|#\s*pragma\s+omp|cuda_runtime|<cuda\.h>", text))


def script_flags(folder: Path, unit: str):
    """-D flags of a simple build script beside the unit (mini-nbody's HIP-nbody-block.sh runs
    `hipcc -I../ -DSHMOO nbody-block.cpp -o nbody-block`): a line, not a comment or an echo, that
    calls hipcc or nvcc on the unit. Ferry migrates Makefiles and CMake files, not shell scripts."""
    flags = []
    for sh in sorted(folder.glob("*.sh")):
        for line in read(sh).splitlines():
            words = line.split()
            if not words or words[0].startswith("#") or words[0] == "echo":
                continue
            if re.search(r"\b(?:hipcc|nvcc)\b", line) and re.search(rf"(?<![\w.-]){re.escape(unit)}(?![\w.-])", line):
                flags += [w for w in re.findall(r"(?<![\w$])(-D[\w=]+)", line) if w not in flags]
    return flags


def model_program(tree: Path, name: str):
    """The HIP model of a UoB-HPC benchmark (BabelStream, miniBUDE): src/main.cpp selects the
    model's header by a definition (-DHIP) and the CMake build adds the model's folder to the
    include path; src/hip/*.cpp are the model's units. Built and run in src/ (miniBUDE's default
    deck is ../data/bm1)."""
    src = tree / "src"
    if not ((src / "main.cpp").is_file() and (src / "hip" / "model.cmake").is_file()):
        return None
    units = ["main.cpp"] + [f"hip/{u.name}" for u in sorted((src / "hip").glob("*.cpp"))]
    std = re.findall(r"CMAKE_CXX_STANDARD\s+(\d\d)", read(tree / "CMakeLists.txt"))
    flags = [f"-std=c++{max(map(int, std)) if std else 17}", "-DHIP", "-Ihip"]
    return {"tree": name, "dir": f"{name}/src", "id": f"{name}/hip", "method": "units", "units": units,
            "flags": flags, "libs": []}


def variant_folder(folder: Path) -> bool:
    """A folder with no HIP in it that holds the CUDA or serial variant kept beside a HIP port
    (hip-programming's bonus/heat-equation/{cuda,serial}): a .cu or CUDA-runtime source, or a
    folder named for the variant. (A HIP program whose HIP is all in a library folder below,
    rocm-examples' static_host_library, is none.)"""
    files = [q for q in folder.glob("*") if q.suffix in UNIT_EXT | {".h", ".hpp", ".cuh", ".inl"}]
    if any(HIP_API.search(read(q)) for q in files):
        return False
    return folder.name in ("cuda", "serial", "cpu", "omp", "openmp") or any(
        q.suffix == ".cu" or re.search(r"cuda_runtime|<cuda\.h>", read(q)) for q in files)


def exercise(unit: Path) -> bool:
    """An exercise template: the same file name in a solution/ or solutions/ folder beside it."""
    return any((unit.parent / d / unit.name).is_file() for d in ("solution", "solutions"))


def programs(tree: Path, name: str, original: Path = None):
    """One entry per folder with a main() (per main unit where a folder has several). For a HIP
    tree (original given), only programs whose original sources use HIP: the CUDA, OpenCL and
    OpenMP variants some corpora keep beside their HIP ports are not HIP programs."""
    out, skipped = [], []
    model = model_program(tree, name)
    if model:
        out.append(model)
    folders = {}
    for p in sorted(tree.rglob("*")):
        if p.is_file() and p.suffix in UNIT_EXT:
            folders.setdefault(p.parent, []).append(p)
    for folder, units in sorted(folders.items()):
        texts = {u: read(u) for u in units}
        mains = [u for u in units if MAIN.search(texts[u])]
        if not mains:
            continue
        rel = str(folder.relative_to(tree))
        if model and folder == tree / "src":
            continue  # the models' shared main.cpp: built as the model program above
        drafts = [m for m in mains if exercise(m)]
        skipped += [f"{name}/{rel}/{m.name} (exercise)" for m in drafts]
        mains = [m for m in mains if m not in drafts]
        if not mains:
            continue
        if original is not None and variant_folder(original / rel):
            skipped += [f"{name}/{rel}/{m.name}" for m in mains]
            continue
        if original is not None:
            keep = [m for m in mains if not_hip(original / rel / m.name) is False]
            skipped += [f"{name}/{rel}/{m.name}" for m in mains if m not in keep]
            mains = keep
            if not mains:
                continue
        mk = folder / "Makefile"
        others = [u.name for u in units if not MAIN.search(texts[u])]
        base = {"tree": name, "dir": f"{name}/{rel}"}
        if mk.exists() and len(mains) == 1:
            text = read(mk)
            out.append(dict(base, id=f"{name}/{rel}", method="make", target=make_target(text)))
            continue
        flags, libs = cmake_flags(folder)
        if (folder / "Makefile").exists():
            for w in re.findall(r"(?<![\w$])(-D[\w=]+|--extended-lambda|--expt-relaxed-constexpr|-rdc=true)", read(mk)):
                if w not in flags:
                    flags.append(w)
        libs += [x for x in guess_libs(texts.values()) if x not in libs]
        for m in mains:
            pid = f"{name}/{rel}" if len(mains) == 1 else f"{name}/{rel}/{m.name}"
            extra = [f for f in script_flags(folder, m.name) if f not in flags]
            entry = dict(base, id=pid, method="units", units=[m.name] + others, flags=flags + extra, libs=libs)
            if code_object_steps(folder):
                entry["pre"] = code_object_steps(folder)
            out.append(entry)
    return out, skipped


def prepare(a) -> int:
    dest = Path(a.dest).resolve()
    trees = [("re", a.re, "hip"), ("he", a.he, "hip"), ("cs", a.cs, "cuda"), ("bs", a.bs, "hip"),
             ("mb", a.mb, "hip"), ("hp", a.hp, "hip"), ("ht", a.ht, "hip")]
    with tempfile.TemporaryDirectory(prefix="ferry-h200-") as tmp:
        staged = Path(tmp) / "stage"
        staged.mkdir()
        manifest = {"ferry": FERRY, "trees": {}, "programs": []}
        total = 0
        for name, src, frm in trees:
            if not src:
                continue
            src = Path(src).resolve()
            if name == "ht" and (src / "samples").is_dir():
                src = src / "samples"  # hip-tests: the samples, not the catch2 test suite
            if not src.is_dir():
                print(f"SKIP: {src} is absent")
                continue
            cuda = Path(tmp) / (name + "-cuda")
            if frm == "hip":
                migrate(src, cuda, "hip", "cuda")
            else:  # the CUDA -> HIP -> CUDA round trip of the CUDA originals
                hip = Path(tmp) / (name + "-hip")
                migrate(src, hip, "cuda", "hip")
                migrate(hip, cuda, "hip", "cuda")
            commit = subprocess.run(["git", "-C", str(src), "rev-parse", "HEAD"], capture_output=True,
                                    text=True).stdout.strip() or None
            size = copy_tree(cuda, staged / name)
            total += size
            progs, skipped = programs(staged / name, name, src if frm == "hip" else None)
            manifest["trees"][name] = {"source": str(src), "commit": commit, "direction": f"{frm}->cuda",
                                       "bytes": size, "programs": len(progs),
                                       "not_hip": skipped}
            manifest["programs"] += progs
            print(f"{name}: {src} -> {len(progs)} programs ({len(skipped)} non-HIP variants left out), "
                  f"{size / 1e6:.1f} MB")
        if total > a.limit_mb * 1e6:
            print(f"error: {total / 1e6:.1f} MB is over the {a.limit_mb} MB limit", file=sys.stderr)
            return 2
        if a.test_libs:
            for sub, paths in TEST_LIBS.items():
                (staged / "extra" / sub).mkdir(parents=True, exist_ok=True)
                for q in map(Path, paths):
                    if q.is_dir():
                        shutil.copytree(q, staged / "extra" / sub / q.name)
                    elif q.exists():
                        shutil.copy2(q.resolve(), staged / "extra" / sub / q.name)
        shutil.copy2(Path(__file__), staged / Path(__file__).name)
        shutil.copy2(PROGRAMS_TSV, staged / PROGRAMS_TSV.name)
        (staged / "manifest.json").write_text(json.dumps(manifest, indent=1))
        if dest.exists():
            shutil.rmtree(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staged), str(dest))
    print(f"prepared {len(manifest['programs'])} programs in {dest} ({total / 1e6:.1f} MB)")
    return 0


# -------------------------------------------------------------------------------------------------- run

def has_gpu() -> bool:
    if not shutil.which("nvidia-smi"):
        return False
    r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
    return r.returncode == 0 and "GPU" in r.stdout


def elf_executables(folder: Path):
    found = {}
    for p in folder.rglob("*"):
        try:
            if p.is_file() and os.access(p, os.X_OK) and p.suffix not in {".sh", ".py"}:
                with open(p, "rb") as f:
                    if f.read(4) == b"\x7fELF":
                        found[p] = p.stat().st_mtime
        except OSError:
            pass
    return found


class Runner:
    def __init__(self, a, dest: Path, out: Path, gpu: bool):
        self.a, self.dest, self.out, self.gpu = a, dest, out, gpu
        self.logs = out / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        self.deadline = time.time() + a.budget
        self.gpu_slots = threading.Semaphore(a.run_jobs)
        self.long_slots = threading.Semaphore(a.long_jobs)
        self.env = dict(os.environ, NVCC_APPEND_FLAGS="-arch=sm_90 -Wno-deprecated-gpu-targets")
        self.table = program_table(dest)

    def log(self, pid: str, kind: str, text: str) -> None:
        (self.logs / (pid.replace("/", "__") + "." + kind + ".log")).write_text(text)

    def build(self, p):
        folder = self.dest / p["dir"]
        left = self.deadline - time.time()
        if left < 20:
            return None, "budget spent before the build"
        tmo = min(self.a.build_timeout, left)
        if p["method"] == "make":
            before = elf_executables(folder)
            cmd = ["make", "-C", str(folder)] + ([p["target"]] if p.get("target") else [])
        else:
            exe = folder / ("ferry_" + p["id"].split("/")[-1].replace(".", "_") + ".exe")  # one per main unit
            cmd = ["nvcc", "-x", "cu", "-O2", "-o", str(exe), "-I" + str(folder)]
            for common in ("Common", "common"):  # rocm-examples' Common, hip-tests samples' common
                if (self.dest / p["tree"] / common).is_dir():
                    cmd.append("-I" + str(self.dest / p["tree"] / common))
            up = folder.parent  # headers one or two folders up (mini-nbody's timer.h), as verify infers them
            while up != self.dest / p["tree"] and self.dest in up.parents:
                cmd += ["-I" + str(up)] + (["-I" + str(up / "include")] if (up / "include").is_dir() else [])
                up = up.parent
            extra = self.dest / "extra"
            if extra.is_dir() and any(x in p["libs"] for x in ("-lgtest", "-lbenchmark")):
                cmd += ["-I" + str(extra / "include"), "-L" + str(extra / "lib"),
                        "-Xlinker", "-rpath=" + str(extra / "lib")]
            cmd += p["flags"] + p["units"] + [x for x in p["libs"] if x != "@mpi"]
            if "@mpi" in p["libs"]:
                cmd += mpi_flags()
        pre_log = ""
        for step in p.get("pre", []):  # code objects the program loads at run time
            try:
                q = subprocess.run(step, capture_output=True, text=True, errors="replace", cwd=folder, timeout=tmo,
                                   env=self.env)
                pre_log += f"$ {' '.join(step)}\nexit {q.returncode}\n{q.stdout}{q.stderr}"
            except subprocess.TimeoutExpired:
                pre_log += f"$ {' '.join(step)}\nTIMEOUT\n"
        try:
            b = subprocess.run(cmd, capture_output=True, text=True, errors="replace", cwd=folder, timeout=tmo,
                               env=self.env)
        except subprocess.TimeoutExpired as e:
            self.log(p["id"], "build", f"$ {' '.join(cmd)}\nTIMEOUT after {tmo:.0f} s\n{e.stdout or ''}{e.stderr or ''}")
            return None, "build timed out"
        self.log(p["id"], "build", f"{pre_log}$ {' '.join(cmd)}\nexit {b.returncode}\n{b.stdout}{b.stderr}")
        if p["method"] == "make":
            after = elf_executables(folder)
            new = [q for q, t in after.items() if before.get(q) != t and q.suffix != ".o"]
            if b.returncode != 0 or not new:
                return None, first_error(b.stdout + b.stderr) or f"make exit {b.returncode}, no executable"
            return sorted(new, key=lambda q: after[q])[-1], None
        if b.returncode != 0:
            return None, first_error(b.stdout + b.stderr)
        return exe, None

    def run_one(self, p):
        t0 = time.time()
        exe, err = self.build(p)
        res = {"id": p["id"], "tree": p["tree"], "method": p["method"], "build_s": round(time.time() - t0, 1)}
        if exe is None:
            res.update(verdict="NOT-RUN" if err and "budget" in err else "BUILD-FAIL", reason=err)
            return res
        if not self.gpu:
            res.update(verdict="BUILT")
            return res
        how = next(((args, launcher, limit) for pat, args, launcher, limit in self.table if pat.search(p["id"])),
                   ([], [], None))
        with self.long_slots if how[2] else self.gpu_slots:  # long runs do not hold up the rest
            left = self.deadline - time.time()
            if left < 5:
                res.update(verdict="NOT-RUN", reason="budget spent before the run")
                return res
            tmo = min(how[2] or self.a.timeout, left)
            argv = how[1] + [str(exe)] + how[0]
            res["argv"] = " ".join(how[1] + ["./" + exe.name] + how[0])
            t1 = time.time()
            try:
                r = subprocess.run(argv, capture_output=True, text=True, errors="replace", cwd=exe.parent,
                                   timeout=tmo, stdin=subprocess.DEVNULL)
            except subprocess.TimeoutExpired as e:
                out = (e.stdout or b"")
                out = out.decode(errors="replace") if isinstance(out, bytes) else out
                self.log(p["id"], "run", out)
                res.update(verdict="TIMEOUT", run_s=round(time.time() - t1, 1), tail=out[-400:])
                return res
        text = r.stdout + r.stderr
        self.log(p["id"], "run", f"exit {r.returncode}\n{text}")
        bad = [l.strip()[:200] for l in text.splitlines() if FAIL.search(l)]
        if r.returncode == 2 and "waiv" in text.lower():
            verdict = "WAIVED"
        elif r.returncode == 0 and not bad:
            verdict = "PASS"
        else:
            verdict = "FAIL"
        res.update(verdict=verdict, exit=r.returncode, run_s=round(time.time() - t1, 1), check_lines=bad[:4],
                   tail=text[-500:])
        return res


def mpi_flags():
    """`mpicxx --showme:compile/link` of the run machine, in nvcc's spelling (host-only options
    through -Xcompiler / -Xlinker); none where Open MPI's wrapper is absent."""
    if not shutil.which("mpicxx"):
        return []
    out = []
    for what in ("compile", "link"):
        r = subprocess.run(["mpicxx", "--showme:" + what], capture_output=True, text=True)
        for w in r.stdout.split() if r.returncode == 0 else []:
            if w.startswith(("-I", "-L", "-l", "-D")):
                out.append(w)
            elif w.startswith("-Wl,"):
                out += ["-Xlinker", w[4:]]
            else:
                out.append("-Xcompiler=" + w)
    return out


def program_table(dest: Path):
    """DEST/hip2cuda_programs.tsv: (id pattern, arguments, launcher, time limit) per program."""
    rows = []
    f = dest / PROGRAMS_TSV.name
    for line in read(f).splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = (line.split("\t") + [""] * 5)[:5]
        rows.append((re.compile(cols[0]), cols[1].split(), cols[2].split(), int(cols[3]) if cols[3] else None))
    return rows


def first_error(text: str):
    for l in text.splitlines():
        if re.search(r"\berror\b|fatal|undefined reference|No rule to make", l):
            return l.strip()[:300]
    return text.strip().splitlines()[-1][:300] if text.strip() else None


def run(a) -> int:
    dest = Path(a.dest).resolve()
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    man = json.loads((dest / "manifest.json").read_text())
    progs = [p for p in man["programs"] if not a.only or re.search(a.only, p["id"])]
    gpu = has_gpu()
    if not shutil.which("nvcc"):
        print("SKIP: no nvcc on this machine")
        return 0
    info = subprocess.run("nvidia-smi -L; nvcc --version | tail -2; cmake --version | head -1", shell=True,
                          capture_output=True, text=True).stdout
    print(info + ("" if gpu else "no GPU: building only\n"), flush=True)
    r = Runner(a, dest, out, gpu)
    long_first = [p for p in progs if any(pat.search(p["id"]) and limit for pat, _, _, limit in r.table)]
    progs = long_first + [p for p in progs if p not in long_first]  # the long runs start while there is time
    t0 = time.time()
    results = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for res in ex.map(r.run_one, progs):
            results.append(res)
            print(f"{res['verdict']:10} {res['id']}  {res.get('reason') or ''}", flush=True)
    counts = {}
    for t in man["trees"]:
        c = {}
        for res in results:
            if res["tree"] == t:
                c[res["verdict"]] = c.get(res["verdict"], 0) + 1
        counts[t] = c
    summary = {"machine": info, "gpu": gpu, "wall_s": round(time.time() - t0, 1), "trees": man["trees"],
               "counts": counts, "results": results}
    (out / "results.json").write_text(json.dumps(summary, indent=1))
    lines = ["| program | verdict | reason / failing line |", "|---|---|---|"]
    for res in sorted(results, key=lambda x: x["id"]):
        why = res.get("reason") or "; ".join(res.get("check_lines") or []) or (
            f"exit {res.get('exit')}" if res.get("verdict") == "FAIL" else "")
        lines.append(f"| {res['id']} | {res['verdict']} | {why.replace('|', '/')[:220]} |")
    for t, c in counts.items():
        lines.append(f"\n{t} ({man['trees'][t].get('commit')}): " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    (out / "table.md").write_text("\n".join(lines) + "\n")
    with tarfile.open(out / "logs.tgz", "w:gz") as tf:
        tf.add(out / "logs", arcname="logs")
    shutil.rmtree(out / "logs")
    for t, c in counts.items():
        print(f"== {t}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    print(f"wall {time.time() - t0:.0f} s")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("dest")
    p.add_argument("--re", help="ROCm/rocm-examples checkout")
    p.add_argument("--he", help="ROCm/HIP-Examples checkout")
    p.add_argument("--cs", help="NVIDIA/cuda-samples checkout (CUDA -> HIP -> CUDA)")
    p.add_argument("--bs", help="UoB-HPC/BabelStream checkout (its HIP model)")
    p.add_argument("--mb", help="UoB-HPC/miniBUDE checkout (its HIP model)")
    p.add_argument("--hp", help="csc-training/hip-programming checkout (exercise solutions and demos)")
    p.add_argument("--ht", help="ROCm/hip-tests checkout (its samples/)")
    p.add_argument("--limit-mb", type=float, default=60)
    p.add_argument("--test-libs", action="store_true",
                   help="copy this machine's googletest and Google Benchmark (Debian packages) to DEST/extra")
    r = sub.add_parser("run")
    r.add_argument("out")
    r.add_argument("dest")
    r.add_argument("--jobs", type=int, default=16)
    r.add_argument("--run-jobs", type=int, default=6, help="programs on the GPU at once")
    r.add_argument("--long-jobs", type=int, default=12,
                   help="programs with a time limit of their own (hip2cuda_programs.tsv) on the GPU at once, besides")
    r.add_argument("--timeout", type=int, default=30)
    r.add_argument("--build-timeout", type=int, default=240)
    r.add_argument("--budget", type=int, default=330)
    r.add_argument("--only", help="regular expression on program ids")
    a = ap.parse_args()
    if a.cmd == "prepare":
        if not Path(FERRY).exists():
            print(f"SKIP: no ferry binary at {FERRY}")
            return 0
        return prepare(a)
    return run(a)


if __name__ == "__main__":
    sys.exit(main())
