// Flow fields for crowds on grids through C: a field built once on a grid crowd's grid towards
// goal cells, held in a handle that shares it with the agents sent along it
// (wf_crowd_set_flow_target, crowd.cpp). The handle counts among the grid's query handles.

#include <memory>
#include <string>
#include <vector>

#include "handles.hpp"
#include "wayfinder/crowd/crowd.hpp"
#include "wayfinder/grid/grid_flow_field.hpp"

using namespace wayfinder;
using namespace wayfinder::c_api;

extern "C" {

wf_status wf_crowd_flow_field_create(wf_crowd* crowd, const int32_t* goals_xy, size_t goal_count,
                                     wf_crowd_flow_field** out_field, char* error, size_t error_capacity) {
  return guarded(nullptr, error, error_capacity, [&] {
    auto refuse = [&](const std::string& why) {
      write_error(error, error_capacity, "wf_crowd_flow_field_create: " + why);
      return WF_INVALID_ARGUMENT;
    };
    if (!check_constructor_arguments("wf_crowd_flow_field_create", out_field, crowd, "crowd", error, error_capacity))
      return WF_INVALID_ARGUMENT;
    if (crowd->grid == nullptr) return refuse("the crowd walks a navigation mesh; flow fields need a crowd on a grid");
    if (goals_xy == nullptr || goal_count == 0) return refuse("no goals (goals_xy is NULL or goal_count is 0)");
    std::vector<Cell> goals(goal_count);
    for (std::size_t i = 0; i < goal_count; ++i) goals[i] = Cell{goals_xy[2 * i], goals_xy[2 * i + 1]};
    auto field = std::make_shared<GridFlowField>(*crowd->grid->map, goals);
    if (!field->built()) return refuse(field->message());
    auto handle = std::make_unique<wf_crowd_flow_field>();
    handle->grid = crowd->grid;
    handle->field = new std::shared_ptr<const GridFlowField>(std::move(field));
    crowd->grid->queries.fetch_add(1, std::memory_order_relaxed);
    *out_field = handle.release();
    return WF_OK;
  });
}

void wf_crowd_flow_field_destroy(wf_crowd_flow_field* field) {
  if (!is_live(field)) return;
  delete field->field;
  field->grid->queries.fetch_sub(1, std::memory_order_relaxed);
  poison_and_delete(field);
}

}  // extern "C"
