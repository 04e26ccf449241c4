#include "serve/jobs.h"

#include <algorithm>

namespace ferry::serve {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

bool finished(const std::string& state) { return state == "done" || state == "failed" || state == "cancelled"; }

}  // namespace

void JobContext::set_total(std::size_t total) {
  std::lock_guard lock(queue_.mu_);
  if (auto* j = queue_.find_locked(id_)) j->total = total, j->done = 0;
  queue_.bump_locked();
}

void JobContext::advance() {
  std::lock_guard lock(queue_.mu_);
  if (auto* j = queue_.find_locked(id_)) ++j->done;
  queue_.bump_locked();
}

void JobContext::note(const std::string& text) {
  std::lock_guard lock(queue_.mu_);
  if (auto* j = queue_.find_locked(id_)) j->note = text;
  queue_.bump_locked();
}

JobQueue::JobQueue(std::size_t cap, std::size_t keep) : cap_(std::max<std::size_t>(1, cap)), keep_(keep) {
  thread_ = std::thread([this] { worker(); });
}

JobQueue::~JobQueue() {
  shutdown();
  thread_.join();
}

void JobQueue::shutdown() {
  std::lock_guard lock(mu_);
  stopping_ = true;
  for (auto& j : jobs_)
    if (j->ctx) j->ctx->cancel_ = true;
  work_ready_.notify_all();
  bump_locked();
}

void JobQueue::bump_locked() {
  ++version_;
  changed_.notify_all();
}

JobQueue::Job* JobQueue::find_locked(int id) {
  for (auto& j : jobs_)
    if (j->id == id) return j.get();
  return nullptr;
}

std::optional<int> JobQueue::submit(std::string kind, std::string label, Work work, bool cancellable_while_running) {
  std::lock_guard lock(mu_);
  const auto active = std::count_if(jobs_.begin(), jobs_.end(), [](const auto& j) { return !finished(j->state); });
  if (static_cast<std::size_t>(active) >= cap_ || stopping_) return std::nullopt;
  auto j = std::make_unique<Job>();
  j->id = next_id_++;
  j->kind = std::move(kind);
  j->label = std::move(label);
  j->work = std::move(work);
  j->cancellable_while_running = cancellable_while_running;
  j->queued_at = now_seconds();
  j->ctx.reset(new JobContext(*this, j->id));
  const int id = j->id;
  jobs_.push_back(std::move(j));
  // Forget the oldest finished jobs beyond `keep`.
  std::size_t finished_count = 0;
  for (const auto& x : jobs_) finished_count += finished(x->state);
  for (auto it = jobs_.begin(); finished_count > keep_ && it != jobs_.end();)
    if (finished((*it)->state)) it = jobs_.erase(it), --finished_count;
    else ++it;
  bump_locked();
  work_ready_.notify_all();
  return id;
}

bool JobQueue::cancel(int id, std::string* why) {
  std::lock_guard lock(mu_);
  Job* j = find_locked(id);
  auto say = [&](const char* w) {
    if (why) *why = w;
    return false;
  };
  if (!j) return say("no such job");
  if (finished(j->state)) return say("the job has finished");
  if (j->state == "queued") {
    j->state = "cancelled";
    j->finished_at = now_seconds();
    j->work = nullptr;
  } else {
    if (!j->cancellable_while_running) return say("a running round cannot be stopped half-way; it finishes on its own");
    j->ctx->cancel_ = true;
    j->note = "cancelling";
  }
  bump_locked();
  return true;
}

void JobQueue::worker() {
  for (;;) {
    Job* job = nullptr;
    Work work;
    {
      std::unique_lock lock(mu_);
      work_ready_.wait(lock, [&] {
        if (stopping_) return true;
        return std::any_of(jobs_.begin(), jobs_.end(), [](const auto& j) { return j->state == "queued"; });
      });
      if (stopping_) {
        for (auto& j : jobs_)
          if (!finished(j->state)) j->state = "cancelled";
        bump_locked();
        return;
      }
      for (auto& j : jobs_)
        if (j->state == "queued") {
          job = j.get();
          break;
        }
      job->state = "running";
      job->started_at = now_seconds();
      work = std::move(job->work);
      bump_locked();
    }
    nlohmann::json result;
    std::string error;
    try {
      result = work(*job->ctx);
    } catch (const std::exception& e) {
      error = e.what();
    }
    std::lock_guard lock(mu_);
    job->finished_at = now_seconds();
    if (job->ctx->cancelled()) job->state = "cancelled";
    else if (!error.empty()) job->state = "failed", job->error = error;
    else job->state = "done";
    job->result = std::move(result);
    bump_locked();
  }
}

nlohmann::json JobQueue::describe(const Job& j, bool with_result) {
  nlohmann::json d = {{"id", j.id},
                      {"kind", j.kind},
                      {"label", j.label},
                      {"state", j.state},
                      {"done", j.done},
                      {"total", j.total},
                      {"note", j.note},
                      {"error", j.error},
                      {"cancellable", !finished(j.state) && (j.state == "queued" || j.cancellable_while_running)},
                      {"queued_at", j.queued_at},
                      {"started_at", j.started_at},
                      {"finished_at", j.finished_at}};
  if (with_result) d["result"] = j.result;
  return d;
}

nlohmann::json JobQueue::list() const {
  std::lock_guard lock(mu_);
  nlohmann::json jobs = nlohmann::json::array();
  for (auto it = jobs_.rbegin(); it != jobs_.rend(); ++it) jobs.push_back(describe(**it, true));
  return {{"version", version_}, {"jobs", jobs}};
}

std::optional<nlohmann::json> JobQueue::get(int id) const {
  std::lock_guard lock(mu_);
  for (const auto& j : jobs_)
    if (j->id == id) return describe(*j, true);
  return std::nullopt;
}

std::uint64_t JobQueue::version() const {
  std::lock_guard lock(mu_);
  return version_;
}

std::uint64_t JobQueue::wait_for_change(std::uint64_t since, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mu_);
  changed_.wait_for(lock, timeout, [&] { return version_ != since || stopping_; });
  return version_;
}

void JobQueue::drain() const {
  std::unique_lock lock(mu_);
  changed_.wait(lock, [&] {
    return stopping_ || std::none_of(jobs_.begin(), jobs_.end(), [](const auto& j) { return !finished(j->state); });
  });
}

}  // namespace ferry::serve
