// Fork safety of the CUPTI adapter. CUPTI state inherited by a forked child is unusable
// (its threads are gone; a child that calls cuptiActivityFlushAll can hang forever), and
// any lock another thread held at fork() stays locked. So: in the child of a process that
// had loaded CUPTI, the adapter never calls CUPTI again and its callbacks do nothing; and
// its small mutex-guarded state is rebuilt without touching the inherited lock.
//
// Thread safety: the flags are atomics, readable from any thread (CUPTI callbacks too).
#ifndef PROF_AGENT_CUPTI_FORK_GUARD_H_
#define PROF_AGENT_CUPTI_FORK_GUARD_H_

namespace prof {

// Registers the pthread_atfork child handler (once; later calls do nothing). Called when
// the first CUPTI source is made, in the agent's constructor, so the handler runs before
// the agent's own child handler creates the child's session.
void InstallCuptiForkHandler();

// This process has dlopened CUPTI (its children must not use it).
void NoteCuptiLoaded();

// True in a forked child of a process that had loaded CUPTI.
bool CuptiInheritedFromParent();

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_FORK_GUARD_H_
