// NamedItemsCursor: the items it reaches are NamedItems::Get's, in first-seen order, also
// after new names grew (and moved) the index and the items. Expected sums by hand.
#include <catch2/catch.hpp>

#include "analyzer/summary/named_items.h"

namespace prof::analyzer {
namespace {

TEST_CASE("named items cursor: new names in first-seen order, items kept as they grow") {
  NamedItems<NamedItem> items;
  NamedItemsCursor<NamedItem> cursor(&items);
  const NameId names[] = {5, 2, 5, 40, 2, 5};
  for (int i = 0; i < 6; ++i) cursor.Get(names[i]).gpu.Add(10.0 * (i + 1));
  REQUIRE(items.items().size() == 3);
  CHECK(items.items()[0].name == 5);
  CHECK(items.items()[0].gpu.calls == 3);
  CHECK(items.items()[0].gpu.total == 100.0);  // 10 + 30 + 60
  CHECK(items.items()[1].name == 2);
  CHECK(items.items()[1].gpu.calls == 2);
  CHECK(items.items()[1].gpu.total == 70.0);  // 20 + 50
  CHECK(items.items()[2].name == 40);
  CHECK(items.items()[2].gpu.total == 40.0);
}

TEST_CASE("named items cursor: a cursor over items that exist adds to them") {
  NamedItems<NamedItem> items;
  items.Get(7).gpu.Add(1.0);
  NamedItemsCursor<NamedItem> cursor(&items);
  cursor.Get(7).gpu.Add(2.0);
  cursor.Get(3).gpu.Add(4.0);
  REQUIRE(items.items().size() == 2);
  CHECK(items.items()[0].gpu.calls == 2);
  CHECK(items.items()[0].gpu.Max() == 2.0);
  CHECK(items.items()[1].name == 3);
  CHECK(&cursor.Get(3) == &items.Get(3));
}

}  // namespace
}  // namespace prof::analyzer
