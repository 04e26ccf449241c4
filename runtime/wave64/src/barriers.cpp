// The wave64 runtime's barriers: __syncthreads (and its counting forms), barriers of
// cooperative-groups tiles wider than the wavefront, and grid_group::sync() in a cooperative launch.
#include <algorithm>
#include <string>

#include "scheduler_internal.h"

namespace w64::rt {
namespace sched {

GridBarrier* g_grid_barrier = nullptr;  // of the cooperative launch running now (one at a time)

void release_block(Worker& w, Lane* self) {
  int kind = self ? self->bpred >> 8 : -1;  // the counting kind rides in bpred's high bits
  int count = 0;
  int waiting = 0;
  for (unsigned i = 0; i < w.nlanes; ++i) {
    const Lane& l = w.lanes[i];
    if (l.state != State::WaitBlock && &l != self) continue;
    ++waiting;
    count += (l.bpred & 0xff) != 0;
    if (kind < 0) kind = l.bpred >> 8;
  }
  int result = 0;
  switch (kind) {
    case 1: result = count; break;
    case 2: result = count == waiting; break;
    case 3: result = count != 0; break;
    default: break;
  }
  for (unsigned i = 0; i < w.nlanes; ++i) {
    Lane* l = &w.lanes[i];
    if (l == self) {
      l->bresult = result;
      l->state = State::Running;
    } else if (l->state == State::WaitBlock) {
      l->bresult = result;
      push_ready(w, l);
    }
  }
  w.bar_arrived = 0;
}

bool release_tiles(Worker& w, Lane* self) {
  bool self_released = false;
  for (unsigned i = 0; i < w.nlanes;) {
    const Lane& l = w.lanes[i];
    if (l.state != State::WaitTile && &l != self) {
      ++i;
      continue;
    }
    const unsigned first = l.tile_first;
    const unsigned end = std::min(w.nlanes, first + l.tile_count);
    bool complete = true;
    for (unsigned j = first; j < end && complete; ++j) {
      const Lane& m = w.lanes[j];
      complete = m.state == State::Done || ((m.state == State::WaitTile || &m == self) && m.tile_first == first);
    }
    if (complete) {
      for (unsigned j = first; j < end; ++j) {
        Lane* m = &w.lanes[j];
        if (m == self) {
          self_released = true;
          m->state = State::Running;
          --w.tile_waiting;
        } else if (m->state == State::WaitTile) {
          --w.tile_waiting;
          push_ready(w, m);
        }
      }
    }
    i = std::max(i + 1, end);
  }
  return self_released;
}

}  // namespace sched

using namespace sched;

int block_barrier(int kind, int pred) {
  Lane* self = current("__syncthreads");
  Worker& w = *t_worker;
  self->bpred = (kind << 8) | (pred ? 1 : 0);
  self->state = State::WaitBlock;
  ++w.bar_arrived;
  if (w.bar_arrived + w.done == w.nlanes) {
    release_block(w, self);
    return self->bresult;
  }
  wait(w, self);
  return self->bresult;
}

bool in_cooperative_launch() { return t_lane && g_grid_barrier; }

void grid_sync() {
  Lane* self = current("grid_group::sync()");
  if (!g_grid_barrier)
    fatal(
        "grid_group::sync() in a kernel that was not launched with cudaLaunchCooperativeKernel / "
        "hipLaunchCooperativeKernel (a grid barrier needs every block resident)");
  const unsigned n = ++self->grid_syncs;
  block_barrier(0, 0);
  // Every lane of the block has arrived; the first one to go on waits for the other blocks (its
  // OS thread blocks, and with it the block's other lanes), the rest find the barrier passed.
  Worker& w = *t_worker;
  if (w.grid_syncs < n) {
    g_grid_barrier->wait();
    w.grid_syncs = n;
  }
}

void tile_barrier(unsigned first, unsigned count) {
  Lane* self = current("a tile's sync()");
  Worker& w = *t_worker;
  self->tile_first = first;
  self->tile_count = count;
  self->state = State::WaitTile;
  ++w.tile_waiting;
  if (release_tiles(w, self)) return;
  wait(w, self);
}

void* lane_slot(unsigned linear) {
  Worker* w = t_worker;
  if (!w || !t_lane) fatal("a cooperative-groups operation outside a kernel");
  if (linear >= w->nlanes) fatal("internal: lane slot " + std::to_string(linear) + " out of the block");
  return w->lanes[linear].slot;
}

}  // namespace w64::rt
