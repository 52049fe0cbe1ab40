// SIM_CUPTI_OTHER_SUBSCRIBER=1 behaves as if another tool (nsys, Kineto) had subscribed.
#include <catch2/catch.hpp>
#include <cupti.h>

#include <cstdlib>
#include <string>

TEST_CASE("subscribing fails when another tool holds the subscription") {
  setenv("SIM_CUPTI_OTHER_SUBSCRIBER", "1", 1);
  CUpti_SubscriberHandle subscriber;
  CHECK(cuptiSubscribe(&subscriber, nullptr, nullptr) ==
        CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
  const char* text = nullptr;
  REQUIRE(cuptiGetResultString(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, &text) ==
          CUPTI_SUCCESS);
  CHECK(std::string(text) == "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
}
