// Token sets read in place from CRoaring frozen images (lib/token_set/frozen.h) and pools made of
// such views (TokenSetPool::from_frozen): a view holds exactly the set that was written, in every
// container encoding, and a damaged image — one CRoaring's frozen reader would accept as it is —
// is refused with a message naming the defect. Run under ASan+UBSan: none of the damaged images
// may be read out of bounds.
#include <fmt/format.h>
#include <roaring/roaring.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lib/core/error.h"
#include "lib/token_set/frozen.h"
#include "lib/token_set/token_set.h"

namespace glrmask {
namespace {

constexpr std::uint32_t kUniverse = 262145;  // Gemma-3: not a multiple of 2^16 or of 32

// A frozen image in its own 32-byte-aligned buffer, as a mapped artifact would hold it.
class Image {
 public:
  explicit Image(const RoaringBitmap& set) : size_(frozen_size(set)) {
    allocate();
    write_frozen(set, data_.get());
  }
  explicit Image(std::size_t size) : size_(size) { allocate(); }  // zeros
  Image(const Image& other) : size_(other.size_) {
    allocate();
    std::memcpy(data_.get(), other.data_.get(), size_);
  }

  char* data() { return data_.get(); }
  std::size_t size() const { return size_; }
  std::string_view bytes() const { return {data_.get(), size_}; }
  // The 16-bit words and the single bytes of the image, for damaging it.
  std::uint16_t word(std::size_t byte) const {
    std::uint16_t w;
    std::memcpy(&w, data_.get() + byte, 2);
    return w;
  }
  void set_word(std::size_t byte, std::uint16_t w) { std::memcpy(data_.get() + byte, &w, 2); }

 private:
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  void allocate() {
    const std::size_t rounded = (size_ + 32) / 32 * 32;
    data_.reset(static_cast<char*>(std::aligned_alloc(32, rounded)));
    std::memset(data_.get(), 0, rounded);
  }

  std::size_t size_;
  std::unique_ptr<char, Free> data_;
};

// Frozen layout (CRoaring 0.2.66): bitset words, then runs, then array values, then per
// container its key, its count (cardinality - 1, or the number of runs) and its type, then a
// 4-byte header. These offsets address the trailer of an image of `containers` containers.
std::size_t keys_at(const Image& image, std::size_t containers) {
  return image.size() - 4 - 5 * containers;
}
std::size_t types_at(const Image& image, std::size_t containers) {
  return image.size() - 4 - containers;
}

RoaringBitmap array_set() {  // one array container in block 1: 70000, 70003, ..., 70297
  RoaringBitmap set;
  for (std::uint32_t i = 0; i < 100; ++i) set.add(70000 + 3 * i);
  return set;
}

RoaringBitmap bitset_set() {  // one bitset container in block 0: every other id
  RoaringBitmap set;
  for (std::uint32_t i = 0; i < 65536; i += 2) set.add(i);
  set.runOptimize();
  return set;
}

RoaringBitmap run_set() {  // one run container in block 2: three runs
  RoaringBitmap set;
  set.addRange(131072 + 10, 131072 + 5000);
  set.addRange(131072 + 6000, 131072 + 9000);
  set.addRange(131072 + 20000, 131072 + 30000);
  set.runOptimize();
  return set;
}

RoaringBitmap mixed_set(std::mt19937& rng) {  // all three encodings side by side, up to the edge
  RoaringBitmap set = array_set() | bitset_set() | run_set();
  std::uniform_int_distribution<std::uint32_t> id(196608, kUniverse - 1);
  for (int i = 0; i < 50; ++i) set.add(id(rng));
  set.add(kUniverse - 1);
  set.runOptimize();
  return set;
}

std::uint8_t container_type(const RoaringBitmap& set, int i) {
  return set.roaring.high_low_container.typecodes[i];
}

std::vector<std::uint32_t> dense(const RoaringBitmap& set) {
  std::vector<std::uint32_t> words((kUniverse + 31) / 32);
  write_dense(set, words);
  return words;
}

void require_refused(std::string_view image, const std::string& defect,
                     std::uint32_t universe = kUniverse) {
  CHECK_THROWS_WITH(FrozenBitmap::view(image, universe), Catch::Contains(defect));
}
void require_refused(const Image& image, const std::string& defect,
                     std::uint32_t universe = kUniverse) {
  require_refused(image.bytes(), defect, universe);
}

}  // namespace

TEST_CASE("frozen: a view holds the set that was written, in every encoding") {
  std::mt19937 rng(7);
  const RoaringBitmap array = array_set();
  const RoaringBitmap bitset = bitset_set();
  const RoaringBitmap runs = run_set();
  REQUIRE(container_type(array, 0) == ARRAY_CONTAINER_TYPE_CODE);
  REQUIRE(container_type(bitset, 0) == BITSET_CONTAINER_TYPE_CODE);
  REQUIRE(container_type(runs, 0) == RUN_CONTAINER_TYPE_CODE);
  for (const RoaringBitmap& set : {array, bitset, runs, mixed_set(rng), RoaringBitmap()}) {
    const Image image(set);
    const FrozenBitmap view = FrozenBitmap::view(image.bytes(), kUniverse);
    CHECK(view.bitmap() == set);
    CHECK(view.bitmap().cardinality() == set.cardinality());
    CHECK(dense(view.bitmap()) == dense(set));
    // A copy is an ordinary bitmap that can change without touching the image.
    RoaringBitmap copy = view.bitmap();
    copy.add(kUniverse - 2);
    CHECK(view.bitmap() == set);
    CHECK(describe_malformation(set, kUniverse).empty());
  }
}

TEST_CASE("frozen: damaged images are refused with the defect, never read") {
  SECTION("array container out of order") {
    Image image(array_set());
    const std::uint16_t first = image.word(0);
    image.set_word(0, image.word(2));
    image.set_word(2, first);
    require_refused(image, "not strictly ascending");
  }
  SECTION("array container repeats a value") {
    Image image(array_set());
    image.set_word(2, image.word(0));
    require_refused(image, "not strictly ascending");
  }
  SECTION("bitset container whose recorded cardinality is not its bit count") {
    Image image(bitset_set());
    image.data()[100] = static_cast<char>(image.data()[100] ^ 0x02);  // one more id
    require_refused(image, "records 32768 ids and holds 32769");
  }
  SECTION("bitset container without bits") {
    Image image(bitset_set());
    std::memset(image.data(), 0, 8192);
    require_refused(image, "records 32768 ids and holds 0");
  }
  SECTION("run container with overlapping runs") {
    Image image(run_set());
    image.set_word(4, image.word(0));  // run 1 starts where run 0 does
    require_refused(image, "run 1 of a run container overlaps");
  }
  SECTION("run container whose last run leaves the container") {
    Image image(run_set());
    image.set_word(8 + 2, 0xfff0);  // run 2's length - 1
    require_refused(image, "run 2 of a run container overlaps or leaves the container");
  }
  SECTION("container keys out of order") {
    const RoaringBitmap set = array_set() | bitset_set();
    Image image(set);
    image.set_word(keys_at(image, 2) + 2, image.word(keys_at(image, 2)));
    require_refused(image, "keys are not ascending");
  }
  SECTION("an id at or beyond the universe") {
    const Image image(array_set());
    require_refused(image, "holds token id 70297, not below the vocabulary size 70000", 70000);
    CHECK_NOTHROW(FrozenBitmap::view(image.bytes(), 70298));
  }
  SECTION("an array container longer than CRoaring ever makes one") {
    RoaringBitmap set;
    for (std::uint32_t i = 0; i < 4096; ++i) set.add(2 * i);
    REQUIRE(container_type(set, 0) == ARRAY_CONTAINER_TYPE_CODE);
    const Image longest(set);
    CHECK_NOTHROW(FrozenBitmap::view(longest.bytes(), kUniverse));
    // The same trailer after 5000 values, recorded as 5000 (the count field is cardinality - 1).
    Image image(2 * 5000 + 9);
    for (std::uint16_t i = 0; i < 5000; ++i)
      image.set_word(2 * i, static_cast<std::uint16_t>(2 * i));
    std::memcpy(image.data() + 2 * 5000, longest.bytes().data() + longest.size() - 9, 9);
    image.set_word(2 * 5000 + 2, 4999);
    require_refused(image, "an array container of 5000 ids");
  }
  SECTION("an unknown container type") {
    Image image(array_set());
    image.data()[types_at(image, 1)] = 9;
    require_refused(image, "CRoaring does not accept");
  }
  SECTION("a cut or misaligned image") {
    std::mt19937 rng(5);
    const Image image(mixed_set(rng));
    CHECK_THROWS_WITH(FrozenBitmap::view(image.bytes().substr(0, image.size() - 1), kUniverse),
                      Catch::Contains("CRoaring does not accept"));
    CHECK_THROWS_WITH(FrozenBitmap::view(image.bytes().substr(1), kUniverse),
                      Catch::Contains("32-byte aligned"));
    CHECK_THROWS_WITH(FrozenBitmap::view(std::string_view(image.bytes().data(), 0), kUniverse),
                      Catch::Contains("CRoaring does not accept"));
  }
}

// Frozen images as a pool's source: counts the layouts made and the checks run, and refuses
// the images named in `damaged` at their check.
class ImageSource final : public TokenSetPool::FrozenSetSource {
 public:
  explicit ImageSource(std::vector<Image> images) : images_(std::move(images)) {}
  std::size_t size() const override { return images_.size(); }
  FrozenBitmap layout(std::size_t index) const override {
    ++layouts;
    return FrozenBitmap::view_layout(images_[index].bytes());
  }
  void check(std::size_t index, const FrozenBitmap& view) const override {
    ++checks;
    if (damaged.count(index) != 0)
      throw Error(fmt::format("set {} is damaged", index + 2), ErrorCode::kInvalidArgument);
    if (const std::string defect = view.defect(kUniverse); !defect.empty())
      throw Error(defect, ErrorCode::kInvalidArgument);
  }
  std::set<std::size_t> damaged;
  mutable int layouts = 0, checks = 0;

 private:
  std::vector<Image> images_;
};

TEST_CASE("frozen: a pool of views numbers them 2, 3, ... and stays a full pool") {
  std::mt19937 rng(11);
  const std::vector<RoaringBitmap> sets = {array_set(), bitset_set(), run_set(), mixed_set(rng)};
  std::vector<Image> images;
  for (const RoaringBitmap& set : sets) images.emplace_back(set);
  auto source = std::make_shared<ImageSource>(std::move(images));
  TokenSetPool moved = TokenSetPool::from_frozen(kUniverse, source);
  TokenSetPool pool = std::move(moved);
  // Nothing is viewed before a set's first use.
  CHECK(source->layouts == 0);

  REQUIRE(pool.distinct_sets() == 2 + sets.size());
  CHECK(pool.cardinality(TokenSetPool::empty()) == 0);
  CHECK(pool.cardinality(TokenSetPool::full()) == kUniverse);
  for (std::size_t i = 0; i < sets.size(); ++i) {
    const TokenSetId id{static_cast<std::uint32_t>(i + 2)};
    CHECK(pool.get(id) == sets[i]);
    CHECK(pool.cardinality(id) == sets[i].cardinality());
    const DenseMask mask = pool.to_dense_mask(id);
    CHECK(std::vector<std::uint32_t>(mask.words().begin(), mask.words().end()) == dense(sets[i]));
  }
  // Interning finds the views (hashed on first use) and appends new sets after them.
  CHECK(pool.intern(RoaringBitmap(sets[2])) == TokenSetId{4});
  const TokenSetId both = pool.unite(TokenSetId{2}, TokenSetId{4});
  CHECK(both.value() == 6);
  CHECK(pool.get(both) == (sets[0] | sets[2]));
  CHECK(pool.intersect(TokenSetId{5}, TokenSetId{2}) == TokenSetId{2});  // mixed ⊇ array
  CHECK(pool.unite(TokenSetId{2}, TokenSetId{4}) == both);
  CHECK(pool.intern(sets[0] | sets[2]) == both);
  CHECK(pool.complement(TokenSetPool::full()) == TokenSetPool::empty());
  CHECK_THROWS_WITH(pool.cardinality(TokenSetId{7}), Catch::Contains("not made by this pool"));
  // Each view was made and checked once, however often it was used.
  CHECK(source->layouts == 4);
  CHECK(source->checks == 4);
}

TEST_CASE("frozen: a pool's view is made on first use and a damaged one throws on every use") {
  std::mt19937 rng(12);
  const std::vector<RoaringBitmap> sets = {array_set(), bitset_set(), run_set(), mixed_set(rng)};
  std::vector<Image> images;
  for (const RoaringBitmap& set : sets) images.emplace_back(set);
  auto source = std::make_shared<ImageSource>(std::move(images));
  source->damaged = {1};
  const TokenSetPool pool = TokenSetPool::from_frozen(kUniverse, source);
  // layout() makes the view without checking its contents.
  CHECK(pool.layout(TokenSetId{4}).cardinality() == sets[2].cardinality());
  CHECK(source->layouts == 1);
  CHECK(source->checks == 0);
  // The first read of the contents checks the view, once.
  CHECK(pool.get(TokenSetId{4}) == sets[2]);
  CHECK(pool.get(TokenSetId{4}) == sets[2]);
  CHECK(source->layouts == 1);
  CHECK(source->checks == 1);
  // Set 3's check throws on each use; the other sets stay usable.
  for (int attempt = 0; attempt < 2; ++attempt) {
    CHECK_THROWS_WITH(pool.get(TokenSetId{3}), Catch::Contains("set 3 is damaged"));
    CHECK_THROWS_WITH(pool.verify(TokenSetId{3}), Catch::Contains("set 3 is damaged"));
  }
  CHECK(source->checks == 5);
  CHECK(pool.cardinality(TokenSetId{2}) == sets[0].cardinality());
}

}  // namespace glrmask
