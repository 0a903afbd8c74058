// --shard i/n: the one record split every batch subcommand uses.
#include "batch/shard.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace geotruth;

TEST(Shard, ReadsIndexOverCount) {
  const auto shard = parse_shard("2/8");
  ASSERT_TRUE(shard);
  EXPECT_EQ(shard->index, 2u);
  EXPECT_EQ(shard->count, 8u);
  EXPECT_EQ(shard->text(), "2/8");
}

TEST(Shard, RefusesAnythingElse) {
  for (const char* bad : {"", "3", "3/3", "4/3", "0/0", "-1/3", "1/-3", "a/3", "1/3x", " 1/3", "1//3", "1/3/5",
                          "99999999999999999999999/3"})
    EXPECT_FALSE(parse_shard(bad)) << bad;
}

TEST(Shard, NShardsCoverEveryRecordOnce) {
  constexpr std::size_t n = 7, records = 100;
  std::vector<int> taken(records + 1, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t ordinal = 1; ordinal <= records; ++ordinal) taken[ordinal] += Shard{i, n}.keeps(ordinal);
  for (std::size_t ordinal = 1; ordinal <= records; ++ordinal) EXPECT_EQ(taken[ordinal], 1) << ordinal;
  // Positions i, i+n, …: the first record (ordinal 1) is shard 0's.
  EXPECT_TRUE((Shard{0, n}.keeps(1)));
  EXPECT_TRUE((Shard{3, n}.keeps(4 + n)));
}
