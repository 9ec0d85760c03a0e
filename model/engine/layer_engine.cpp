// PLACEHOLDER until the layer engine lands: computes nothing.
#include "model/engine/layer_engine.h"
namespace ai8x {
LayerEngine::LayerEngine(AcceleratorState& s) : state_(s) {}
EngineResult LayerEngine::run() { return {}; }
LayerStats LayerEngine::run_layer(int layer, std::vector<EngineWarning>&) { LayerStats s; s.layer = layer; (void)state_; return s; }
}  // namespace ai8x
