// The corridor searches on meshes with off-mesh links, with and without an area filter,
// compiled apart from the others (see corridor_search.hpp for why).

#include <variant>

#include "navmesh/corridor_search.hpp"
#include "navmesh/separate_run.hpp"

namespace wayfinder::corridor_search {

class LinkedSearches {
 public:
  std::variant<std::monostate, CorridorRun<EdgePointDomain<AllAreasAlike, true>>,
               CorridorRun<CentroidDomain<AllAreasAlike, true>>, CorridorRun<EdgePointDomain<FilteredAreas, true>>,
               CorridorRun<CentroidDomain<FilteredAreas, true>>>
      run;
};

void SeparateSearchesDeleter::operator()(LinkedSearches* searches) const noexcept { delete searches; }

LinkedSearchesPointer make_linked_searches() { return LinkedSearchesPointer(new LinkedSearches); }

template class SeparateRun<LinkedSearches>;
template SearchStatus LinkedRun::start(SearchContext&, CorridorOutput&, EdgePointDomain<AllAreasAlike, true>&&, NodeId,
                                       NodeId, const SearchOptions&);
template SearchStatus LinkedRun::start(SearchContext&, CorridorOutput&, CentroidDomain<AllAreasAlike, true>&&, NodeId,
                                       NodeId, const SearchOptions&);
template SearchStatus LinkedRun::start(SearchContext&, CorridorOutput&, EdgePointDomain<FilteredAreas, true>&&, NodeId,
                                       NodeId, const SearchOptions&);
template SearchStatus LinkedRun::start(SearchContext&, CorridorOutput&, CentroidDomain<FilteredAreas, true>&&, NodeId,
                                       NodeId, const SearchOptions&);

}  // namespace wayfinder::corridor_search
