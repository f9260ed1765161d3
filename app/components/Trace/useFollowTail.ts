import { useEffect, useRef, type RefObject } from 'react';

/** How close to the bottom (px) still counts as "at the end". */
const NEAR_BOTTOM_PX = 48;
/** A scroll this soon after the person's wheel, touch, key or pointer is theirs. */
const INTENT_MS = 1000;
const INTENT_EVENTS = ['wheel', 'touchstart', 'touchmove', 'keydown', 'pointerdown'] as const;

/**
 * While `active`, keeps a scroller pinned to its end as its content grows, as long as the person
 * has not scrolled away from the end (then it stays where they put it, until they scroll back
 * down). When `active` ends, a scroller still following shows the very end.
 *
 * Only a scroll the person made (right after their wheel, touch, key or pointer) decides whether
 * to follow. Judging every scroll event by "near the bottom?" mistook the trace's own scrolls for
 * the person's: a scroll event arrives a frame after its scroll, and by then the content may
 * have grown again (a new step rendered in between), or shrunk and grown (the browser clamps the
 * scroll when a step's reasoning folds away). Under `npm start`, where React's development build
 * renders slowly enough for that to happen most times, the trace stopped following after a step
 * or two.
 */
export function useFollowTail(
  scrollerRef: RefObject<HTMLElement | null>,
  contentRef: RefObject<HTMLElement | null>,
  active: boolean,
): void {
  // Carried from the run's effect to the one after it ends, which must know whether to catch up.
  const following = useRef(false);

  useEffect(() => {
    const scroller = scrollerRef.current;
    const content = contentRef.current;
    if (!scroller || !content) return;
    const toEnd = () => {
      scroller.scrollTop = scroller.scrollHeight;
    };
    if (!active) {
      // The run just ended: show what its last events added, if the person was following.
      if (!following.current) return;
      following.current = false;
      const frame = requestAnimationFrame(toEnd);
      return () => cancelAnimationFrame(frame);
    }
    // The content's height when the observer last saw it. A scroll event comes a frame after its
    // scroll and may find the content already grown: a scroll that reached the end as it was
    // then laid out still counts as reaching the end.
    let observedHeight = scroller.scrollHeight;
    const atEnd = () =>
      scroller.scrollTop + scroller.clientHeight >= Math.min(scroller.scrollHeight, observedHeight) - NEAR_BOTTOM_PX;
    following.current = atEnd();
    let intentAt = -Infinity;
    const onIntent = () => {
      intentAt = performance.now();
    };
    const onScroll = () => {
      if (performance.now() - intentAt <= INTENT_MS) following.current = atEnd();
    };
    const observer = new ResizeObserver(() => {
      if (following.current) toEnd();
      observedHeight = scroller.scrollHeight;
    });
    for (const type of INTENT_EVENTS) scroller.addEventListener(type, onIntent, { passive: true });
    scroller.addEventListener('scroll', onScroll, { passive: true });
    observer.observe(content);
    return () => {
      for (const type of INTENT_EVENTS) scroller.removeEventListener(type, onIntent);
      scroller.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, [scrollerRef, contentRef, active]);
}
