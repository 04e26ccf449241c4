// opcheck_ops.cu - `ferry opcheck` entry points (ferry_opcheck.h) for every operator of the
// library except the GEMMs (opcheck_gemm.cu). Tensor and attr names are those of
// opcheck/llama_ops.json; an entry point refuses (unsupported) the dtypes it does not implement.
#include <cmath>

#include "llama_ops/flash_attention.h"
#include "llama_ops/ops.h"
#include "opcheck_support.cuh"

using llama_ops_opcheck::Session;

namespace {

bool f32(const Session& s) { return s.dtype() == FERRY_F32; }

llama_ops::AttnTensor bhsd(void* data, int heads, int seq, int head_dim) {
    llama_ops::AttnTensor t;
    t.data = data;
    t.stride_row = head_dim;
    t.stride_head = (long long)seq * head_dim;
    t.stride_batch = (long long)heads * seq * head_dim;
    return t;
}

}  // namespace

extern "C" {

int opcheck_rmsnorm(ferry_opcheck_call* c) {
    Session s(c);
    if (!f32(s)) return s.unsupported("fp32 only");
    const int rows = s.dim("rows"), hidden = s.dim("hidden");
    const float eps = (float)s.attr("eps", 1e-5);
    float *x = s.in<float>("x"), *w = s.in<float>("weight"), *y = s.out<float>("y");
    if (!x || !w || !y) return s.error("needs inputs x, weight and output y");
    return s.run([=](cudaStream_t st) -> const char* {
        llama_ops::rmsnorm(x, w, y, rows, hidden, eps, st);
        return nullptr;
    });
}

int opcheck_rmsnorm_backward(ferry_opcheck_call* c) {
    Session s(c);
    if (!f32(s)) return s.unsupported("fp32 only");
    const int rows = s.dim("rows"), hidden = s.dim("hidden");
    const float eps = (float)s.attr("eps", 1e-5);
    float *x = s.in<float>("x"), *w = s.in<float>("weight"), *dy = s.in<float>("dy");
    float *dx = s.out<float>("dx"), *dw = s.out<float>("dweight");
    if (!x || !w || !dy || !dx || !dw) return s.error("needs inputs x, weight, dy and outputs dx, dweight");
    float* ws = static_cast<float*>(s.workspace(llama_ops::rmsnorm_backward_workspace(rows, hidden) * sizeof(float)));
    if (!ws) return s.status();
    return s.run([=](cudaStream_t st) -> const char* {
        llama_ops::rmsnorm_backward(x, w, dy, dx, dw, rows, hidden, eps, ws, st);
        return nullptr;
    });
}

// Forward rotates q, k; backward (the same entry with inverse=1) rotates the gradients back.
static int rope_entry(ferry_opcheck_call* c, bool inverse) {
    Session s(c);
    if (!f32(s)) return s.unsupported("fp32 only");
    const int tokens = s.dim("tokens"), nh = s.dim("n_heads"), nkv = s.dim("n_kv_heads"), hd = s.dim("head_dim");
    if (hd > llama_ops::kMaxHeadDim || hd % 2) return s.unsupported("head_dim must be even and at most 256");
    const float theta = (float)s.attr("theta", 10000.0);
    float *q = s.in<float>("q"), *k = s.in<float>("k");
    const int* pos = s.in<int>("positions");
    float *qo = s.out<float>("q_out"), *ko = s.out<float>("k_out");
    if (!q || !k || !pos || !qo || !ko) return s.error("needs inputs q, k, positions and outputs q_out, k_out");
    llama_ops::rope_init(hd, theta);
    const size_t qb = (size_t)tokens * nh * hd * sizeof(float), kb = (size_t)tokens * nkv * hd * sizeof(float);
    return s.run(
        [=](cudaStream_t st) -> const char* {
            if (inverse) llama_ops::rope_apply_inverse(qo, ko, pos, tokens, nh, nkv, hd, st);
            else llama_ops::rope_apply(qo, ko, pos, tokens, nh, nkv, hd, st);
            return nullptr;
        },
        [=](cudaStream_t st) {  // rotates in place: start from the inputs
            cudaMemcpyAsync(qo, q, qb, cudaMemcpyDeviceToDevice, st);
            cudaMemcpyAsync(ko, k, kb, cudaMemcpyDeviceToDevice, st);
        });
}

int opcheck_rope(ferry_opcheck_call* c) { return rope_entry(c, false); }
int opcheck_rope_backward(ferry_opcheck_call* c) { return rope_entry(c, true); }

int opcheck_swiglu(ferry_opcheck_call* c) {
    Session s(c);
    if (!f32(s)) return s.unsupported("fp32 only");
    float *g = s.in<float>("gate"), *u = s.in<float>("up"), *o = s.out<float>("out");
    if (!g || !u || !o) return s.error("needs inputs gate, up and output out");
    const long long n = (long long)s.input("gate")->numel;
    return s.run([=](cudaStream_t st) -> const char* {
        llama_ops::swiglu(g, u, o, n, st);
        return nullptr;
    });
}

int opcheck_swiglu_backward(ferry_opcheck_call* c) {
    Session s(c);
    if (!f32(s)) return s.unsupported("fp32 only");
    float *g = s.in<float>("gate"), *u = s.in<float>("up"), *d = s.in<float>("dout");
    float *dg = s.out<float>("dgate"), *du = s.out<float>("dup");
    if (!g || !u || !d || !dg || !du) return s.error("needs inputs gate, up, dout and outputs dgate, dup");
    const long long n = (long long)s.input("gate")->numel;
    return s.run([=](cudaStream_t st) -> const char* {
        llama_ops::swiglu_backward(g, u, d, dg, du, n, st);
        return nullptr;
    });
}

int opcheck_softmax(ferry_opcheck_call* c) {
    Session s(c);
    if (!f32(s)) return s.unsupported("fp32 only");
    const int rows = s.dim("rows"), cols = s.dim("cols");
    const float scale = (float)s.attr("scale", 1.0);
    float *x = s.in<float>("x"), *y = s.out<float>("y");
    if (!x || !y) return s.error("needs input x and output y");
    return s.run([=](cudaStream_t st) -> const char* {
        llama_ops::softmax(x, y, rows, cols, scale, st);
        return nullptr;
    });
}

int opcheck_topk(ferry_opcheck_call* c) {
    Session s(c);
    if (!f32(s)) return s.unsupported("fp32 only");
    const int rows = s.dim("rows"), cols = s.dim("cols"), k = s.dim("k");
    if (k < 1 || k > llama_ops::kMaxTopK || k > cols) return s.unsupported("k out of range");
    float *x = s.in<float>("logits"), *v = s.out<float>("values");
    int* idx = s.out<int>("indices");
    if (!x || !v || !idx) return s.error("needs input logits and outputs values, indices");
    return s.run([=](cudaStream_t st) -> const char* {
        llama_ops::topk_rows(x, v, idx, rows, cols, k, st);
        return nullptr;
    });
}

int opcheck_embedding(ferry_opcheck_call* c) {
    Session s(c);
    if (!f32(s)) return s.unsupported("fp32 only");
    const int tokens = s.dim("tokens"), hidden = s.dim("hidden"), vocab = s.dim("vocab");
    const int* ids = s.in<int>("ids");
    float *table = s.in<float>("table"), *out = s.out<float>("out");
    if (!ids || !table || !out) return s.error("needs inputs ids, table and output out");
    return s.run([=](cudaStream_t st) -> const char* {
        llama_ops::embedding_lookup(ids, table, out, tokens, hidden, vocab, st);
        return nullptr;
    });
}

int opcheck_embedding_backward(ferry_opcheck_call* c) {
    Session s(c);
    if (!f32(s)) return s.unsupported("fp32 only");
    const int tokens = s.dim("tokens"), hidden = s.dim("hidden"), vocab = s.dim("vocab");
    const int* ids = s.in<int>("ids");
    float *dout = s.in<float>("dout"), *dtable = s.out<float>("dtable");
    if (!ids || !dout || !dtable) return s.error("needs inputs ids, dout and output dtable");
    return s.run([=](cudaStream_t st) -> const char* {
        llama_ops::embedding_backward(ids, dout, dtable, tokens, hidden, vocab, st);
        return nullptr;
    });
}

int opcheck_attention_causal(ferry_opcheck_call* c) {
    Session s(c);
    if (!f32(s)) return s.unsupported("fp32 only");
    const int b = s.dim("batch"), h = s.dim("heads"), seq = s.dim("seq"), hd = s.dim("head_dim");
    float *q = s.in<float>("q"), *k = s.in<float>("k"), *v = s.in<float>("v"), *o = s.out<float>("out");
    if (!q || !k || !v || !o) return s.error("needs inputs q, k, v and output out");
    return s.run([=](cudaStream_t st) -> const char* {
        return llama_ops::attention_causal(q, k, v, o, b, h, seq, hd, st)
                   ? nullptr
                   : "sequence too long for the naive kernel's shared memory";
    });
}

// q [batch, heads, seq_q, head_dim], k and v [batch, kv_heads (default heads), seq_k, head_dim];
// attr causal.
static bool flash_shape(Session& s, llama_ops::FlashFwdParams& p, int& hd) {
    p.batch = s.dim("batch");
    p.heads = s.dim("heads");
    p.kv_heads = s.dim("kv_heads") > 0 ? s.dim("kv_heads") : p.heads;
    p.seq_q = s.dim("seq_q") > 0 ? s.dim("seq_q") : s.dim("seq");
    p.seq_k = s.dim("seq_k") > 0 ? s.dim("seq_k") : s.dim("seq");
    hd = s.dim("head_dim");
    p.causal = s.attr("causal", 0) != 0;
    p.scale = (float)s.attr("scale", 1.0 / std::sqrt((double)hd));
    return p.batch > 0 && p.heads > 0 && p.seq_q > 0 && p.seq_k > 0 && hd > 0;
}

int opcheck_flash_attention(ferry_opcheck_call* c) {
    Session s(c);
    if (s.dtype() != FERRY_F16 && s.dtype() != FERRY_BF16) return s.unsupported("fp16 and bf16 only");
    llama_ops::FlashFwdParams p;
    int hd = 0;
    if (!flash_shape(s, p, hd)) return s.error("needs dimensions batch, heads, seq (or seq_q, seq_k), head_dim");
    void *q = s.in<void>("q"), *k = s.in<void>("k"), *v = s.in<void>("v"), *o = s.out<void>("o");
    float* lse = s.out<float>("lse");
    if (!q || !k || !v || !o) return s.error("needs inputs q, k, v and output o (lse optional)");
    p.q = bhsd(q, p.heads, p.seq_q, hd);
    p.k = bhsd(k, p.kv_heads, p.seq_k, hd);
    p.v = bhsd(v, p.kv_heads, p.seq_k, hd);
    p.o = bhsd(o, p.heads, p.seq_q, hd);
    p.lse = lse;
    const auto kind = s.dtype() == FERRY_BF16 ? llama_ops::Float16Kind::bf16 : llama_ops::Float16Kind::f16;
    return s.run([=](cudaStream_t st) { return llama_ops::flash_attention_forward(p, hd, kind, st); });
}

// Inputs q, k, v, dout; outputs dq, dk, dv. The forward pass runs once, untimed, for o and lse;
// the repeats time the backward pass alone.
int opcheck_flash_attention_backward(ferry_opcheck_call* c) {
    Session s(c);
    if (s.dtype() != FERRY_F16 && s.dtype() != FERRY_BF16) return s.unsupported("fp16 and bf16 only");
    llama_ops::FlashFwdParams f;
    int hd = 0;
    if (!flash_shape(s, f, hd)) return s.error("needs dimensions batch, heads, seq (or seq_q, seq_k), head_dim");
    void *q = s.in<void>("q"), *k = s.in<void>("k"), *v = s.in<void>("v"), *dout = s.in<void>("dout");
    void *dq = s.out<void>("dq"), *dk = s.out<void>("dk"), *dv = s.out<void>("dv");
    if (!q || !k || !v || !dout || !dq || !dk || !dv) return s.error("needs inputs q, k, v, dout and outputs dq, dk, dv");
    const size_t rows = (size_t)f.batch * f.heads * f.seq_q;
    void* o = s.workspace(rows * hd * 2);
    float* lse = static_cast<float*>(s.workspace(rows * sizeof(float)));
    float* delta = static_cast<float*>(s.workspace(rows * sizeof(float)));
    if (!o || !lse || !delta) return s.status();
    f.q = bhsd(q, f.heads, f.seq_q, hd);
    f.k = bhsd(k, f.kv_heads, f.seq_k, hd);
    f.v = bhsd(v, f.kv_heads, f.seq_k, hd);
    f.o = bhsd(o, f.heads, f.seq_q, hd);
    f.lse = lse;
    llama_ops::FlashBwdParams b;
    b.q = f.q;
    b.k = f.k;
    b.v = f.v;
    b.o = f.o;
    b.dout = bhsd(dout, f.heads, f.seq_q, hd);
    b.dq = bhsd(dq, f.heads, f.seq_q, hd);
    b.dk = bhsd(dk, f.kv_heads, f.seq_k, hd);
    b.dv = bhsd(dv, f.kv_heads, f.seq_k, hd);
    b.lse = lse;
    b.delta = delta;
    b.batch = f.batch;
    b.heads = f.heads;
    b.kv_heads = f.kv_heads;
    b.seq_q = f.seq_q;
    b.seq_k = f.seq_k;
    b.scale = f.scale;
    b.causal = f.causal;
    const auto kind = s.dtype() == FERRY_BF16 ? llama_ops::Float16Kind::bf16 : llama_ops::Float16Kind::f16;
    const char* refused = nullptr;
    const int rc = s.run([=](cudaStream_t st) { return llama_ops::flash_attention_backward(b, hd, kind, st); },
                         [=, &refused](cudaStream_t st) { refused = llama_ops::flash_attention_forward(f, hd, kind, st); });
    return refused ? s.unsupported(refused) : rc;
}

}  // extern "C"
