package ad4j.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TapeTest {
  @Test
  void valuesComeBackInMirrorOrderPerType() {
    Tape tape = Tape.create();
    tape.pushDouble(1.5);
    tape.pushInt(-7);
    tape.pushLong(Long.MIN_VALUE);
    tape.pushBoolean(true);
    tape.pushDouble(Double.NaN);
    tape.pushBoolean(false);
    assertEquals(6, tape.size());
    assertFalse(tape.popBoolean());
    assertTrue(Double.isNaN(tape.popDouble()));
    assertTrue(tape.popBoolean());
    assertEquals(Long.MIN_VALUE, tape.popLong());
    assertEquals(-7, tape.popInt());
    assertEquals(1.5, tape.popDouble());
    assertEquals(0, tape.size());
  }

  @Test
  void resetDropsWhatWasRecordedSinceTheMarkAndKeepsWhatWasBefore() {
    Tape tape = Tape.create();
    tape.pushDouble(0.25);
    tape.pushInt(3);
    long mark = tape.mark();
    for (int i = 0; i < 10_000; i++) {
      tape.pushDouble(i);
      tape.pushInt(i);
      tape.pushLong(i);
      tape.pushBoolean(i % 2 == 0);
    }
    tape.reset(mark);
    assertEquals(2, tape.size());
    assertEquals(3, tape.popInt());
    assertEquals(0.25, tape.popDouble());
  }

  @Test
  void rewindGivesBackWhatWasPoppedSinceTheMarkForAnotherReverseSweep() {
    Tape tape = Tape.create();
    tape.pushDouble(-3.5); // recorded before: stays below
    long start = tape.mark();
    for (int i = 0; i < 5_000; i++) {
      tape.pushDouble(i + 0.5);
      tape.pushInt(i);
      tape.pushBoolean(i % 3 == 0);
    }
    long recorded = tape.mark();
    for (int sweep = 0; sweep < 3; sweep++) {
      tape.rewind(recorded);
      for (int i = 4_999; i >= 0; i--) {
        assertEquals(i % 3 == 0, tape.popBoolean());
        assertEquals(i, tape.popInt());
        assertEquals(i + 0.5, tape.popDouble());
      }
      assertEquals(start, tape.mark());
    }
    assertEquals(-3.5, tape.popDouble());
    assertEquals(0, tape.size());
  }

  @Test
  void aMarkHoldsCountsBeyondSixteenBits() {
    Tape tape = Tape.create();
    for (int i = 0; i < 70_000; i++) {
      tape.pushDouble(i);
    }
    for (int i = 0; i < 100_000; i++) {
      tape.pushInt(i);
    }
    long mark = tape.mark();
    tape.pushDouble(-1);
    tape.pushInt(-1);
    tape.reset(mark);
    assertEquals(170_000, tape.size());
    assertEquals(99_999, tape.popInt());
    assertEquals(69_999.0, tape.popDouble());
  }

  @Test
  void arraysComeBackAsTheSameObjectsInMirrorOrderWithTheOtherValues() {
    Tape tape = Tape.create();
    double[] first = {1, 2};
    int[] second = {3};
    double[] third = new double[0];
    tape.pushInt(5);
    tape.pushArray(first);
    for (int i = 0; i < 200; i++) {
      tape.pushLong(i); // the long stack grows past the arrays' first capacity
    }
    tape.pushArray(second);
    tape.pushDouble(0.5);
    tape.pushArray(third);
    double[][] fourth = {{1}, {}};
    tape.pushArray(fourth);
    assertEquals(206, tape.size());
    assertSame(fourth, tape.popDoubleMatrix());
    assertSame(third, tape.popDoubleArray());
    assertEquals(0.5, tape.popDouble());
    assertSame(second, tape.popIntArray());
    for (int i = 199; i >= 0; i--) {
      assertEquals(i, tape.popLong());
    }
    assertSame(first, tape.popDoubleArray());
    assertEquals(5, tape.popInt());
    assertEquals(0, tape.size());
  }

  @Test
  void objectsComeBackAsTheSameObjectsBesideArraysAndNumbers() {
    Tape tape = Tape.create();
    String name = "probe";
    java.util.List<String> tags = java.util.List.of("a");
    double[] array = {1};
    tape.pushObject(name);
    tape.pushLong(3);
    tape.pushArray(array);
    tape.pushObject(tags);
    tape.pushObject(null);
    assertEquals(5, tape.size());
    assertNull(tape.popObject());
    java.util.List<String> back = tape.popObject();
    assertSame(tags, back);
    assertSame(array, tape.popDoubleArray());
    assertEquals(3, tape.popLong());
    String named = tape.popObject();
    assertSame(name, named);
    assertEquals(0, tape.size());
  }

  @Test
  void resetDropsRecordedArraysSoThatTheTapeNoLongerHoldsThem() throws Exception {
    Tape tape = Tape.create();
    tape.pushInt(1);
    long mark = tape.mark();
    tape.pushArray(new double[] {1});
    tape.pushArray(new int[] {2});
    tape.reset(mark);
    assertEquals(1, tape.size());
    java.lang.reflect.Field arrays = Tape.class.getDeclaredField("arrays");
    arrays.setAccessible(true);
    for (Object held : (Object[]) arrays.get(tape)) {
      assertNull(held);
    }
    double[] again = {7};
    tape.pushArray(again);
    assertSame(again, tape.popDoubleArray());
    assertEquals(1, tape.popInt());
  }

  @Test
  void snapshotsAreThinnedToEveryOtherWhenTheLimitIsHeld() {
    Tape tape = Tape.create();
    tape.pushDouble(-1); // recorded before the loop: untouched
    long start = tape.mark();
    int every = 1;
    // a loop whose state is one double (the iteration) and one int (its square), limit 4
    for (int iteration = 0; iteration < 12; iteration++) {
      if (iteration % every == 0) {
        every = tape.makeRoomForSnapshot(start, 1, 1, 4, every);
        if (iteration % every == 0) {
          tape.pushDouble(iteration);
          tape.pushInt(iteration * iteration);
        }
      }
    }
    // 0..3 held at iteration 4: thinned to 0, 2, interval 2; then 4, 6; at 8 thinned to 0, 4,
    // interval 4; then 8
    assertEquals(4, every);
    assertEquals(1 + 3 + 3, tape.size());
    for (int i = 0; i < 3; i++) {
      assertEquals(4.0 * i, tape.doubleAt(start, i));
      assertEquals(16 * i * i, tape.intAt(start, i));
      assertEquals(16L * i * i, tape.longAt(start, i));
    }
    tape.reset(start);
    assertEquals(-1, tape.popDouble());
  }

  @Test
  void aLoopWithoutStateNeverThins() {
    Tape tape = Tape.create();
    long start = tape.mark();
    assertEquals(8, tape.makeRoomForSnapshot(start, 0, 0, 2, 8));
    assertEquals(8 * 128, tape.capacityBytes()); // two stacks of 64 values: nothing grew
    tape.pushBoolean(true);
    assertTrue(tape.booleanAt(start, 0));
  }
}
