// A GridMap's attachment slots (core/src/map/attachment.h): copies share
// what engines attached, ApplyChanges keeps only what holds across versions,
// and the map's byte counts include what is attached.
#include "map/attachment.h"

#include <memory>
#include <vector>

#include "gridstar/engines/alt.h"
#include "gridstar/engines/hpa.h"
#include "gridstar/engines/jps.h"
#include "gridstar/engines/subgoal.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_update.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

class Fake final : public internal::MapAttachment {
 public:
  Fake(size_t bytes, bool kept) : bytes_(bytes), kept_(kept) {}
  size_t HeldBytes() const override { return bytes_; }
  bool KeptByNewVersions() const override { return kept_; }

 private:
  const size_t bytes_;
  const bool kept_;
};

GridMap OpenMap() {
  return *GridMap::FromCosts(8, 8, std::vector<uint8_t>(64, 1));
}

TEST(AttachmentTest, AnEmptySlotIsNull) {
  const GridMap map = OpenMap();
  for (Algorithm a : kAllAlgorithms) {
    EXPECT_EQ(map.attachment(a), nullptr);
  }
  EXPECT_EQ(map.AttachmentBytes(), 0u);
}

TEST(AttachmentTest, CopiesShareWhatIsAttachedAndBytesCountIt) {
  GridMap map = OpenMap();
  const size_t bare = map.MemoryBytes();
  auto fake = std::make_shared<const Fake>(1000, false);
  map.Attach(Algorithm::kBidirectional, fake);
  EXPECT_EQ(internal::AttachedTo<Fake>(map, Algorithm::kBidirectional),
            fake.get());
  EXPECT_EQ(map.attachment(Algorithm::kTheta), nullptr);  // Its own slot.
  EXPECT_EQ(map.AttachmentBytes(), 1000u);
  EXPECT_EQ(map.MemoryBytes(), bare + 1000);
  const GridMap copy = map;
  EXPECT_EQ(copy.attachment(Algorithm::kBidirectional), fake.get());
  map.Attach(Algorithm::kBidirectional, nullptr);  // Removes it here only.
  EXPECT_EQ(map.attachment(Algorithm::kBidirectional), nullptr);
  EXPECT_EQ(copy.attachment(Algorithm::kBidirectional), fake.get());
}

TEST(AttachmentTest, ANewVersionKeepsOnlyWhatHoldsAcrossVersions) {
  GridMap map = OpenMap();
  auto kept = std::make_shared<const Fake>(10, true);
  auto dropped = std::make_shared<const Fake>(20, false);
  map.Attach(Algorithm::kBidirectional, kept);
  map.Attach(Algorithm::kTheta, dropped);
  ChangeSummary summary;
  absl::StatusOr<GridMap> next =
      ApplyChanges(map, {CellChange{{2, 2}, {3, 3}, 0}}, &summary);
  ASSERT_OK(next);
  EXPECT_EQ(next->attachment(Algorithm::kBidirectional), kept.get());
  EXPECT_EQ(next->attachment(Algorithm::kTheta), nullptr);
  EXPECT_EQ(next->AttachmentBytes(), 10u);
}

TEST(AttachmentTest, EnginesStructuresUseTheirOwnSlots) {
  GridMap map = OpenMap();
  ASSERT_OK(BuildJumpTable(&map));
  ASSERT_OK(BuildLandmarks(&map, 2, DiagonalPolicy::kNoCornerCutting));
  ASSERT_OK(BuildHpa(&map, DiagonalPolicy::kNoCornerCutting));
  ASSERT_OK(BuildSubgoalGraph(&map));
  EXPECT_NE(map.attachment(Algorithm::kJpsPlus), nullptr);
  EXPECT_NE(map.attachment(Algorithm::kAlt), nullptr);
  EXPECT_NE(map.attachment(Algorithm::kHpa), nullptr);
  EXPECT_NE(map.attachment(Algorithm::kSubgoal), nullptr);
  EXPECT_EQ(map.AttachmentBytes(), JumpTableBytes(map) + LandmarkBytes(map) +
                                       HpaBytes(map) + SubgoalGraphBytes(map));
  // An update drops the four (their DerivedStructures carry or rebuild
  // them); a bare ApplyChanges leaves the new version without them.
  ChangeSummary summary;
  absl::StatusOr<GridMap> next =
      ApplyChanges(map, {CellChange{{4, 4}, {5, 5}, 0}}, &summary);
  ASSERT_OK(next);
  EXPECT_FALSE(HasJumpTable(*next));
  EXPECT_EQ(LandmarkCount(*next), 0);
  EXPECT_FALSE(HasHpa(*next));
  EXPECT_FALSE(HasSubgoalGraph(*next));
}

}  // namespace
}  // namespace gridstar
