// Joins the models of several recording windows of one process (one file each) into one
// model, so a process's tables cover all its windows. Names are re-interned; device
// records keep their links to their API calls.
#ifndef PROF_ANALYZER_MODEL_MODEL_MERGE_H_
#define PROF_ANALYZER_MODEL_MODEL_MERGE_H_

#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

// Moves every record of `from` into `into`. Identity comes from `into` (the first file).
void AppendModel(TraceModel&& from, TraceModel* into);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_MODEL_MERGE_H_
