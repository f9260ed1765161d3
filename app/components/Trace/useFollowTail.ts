import { useEffect, useRef, type RefObject } from 'react';

/** How close to the bottom (px) still counts as "at the end". */
const NEAR_BOTTOM_PX = 48;

/**
 * While `active`, keeps a scroller pinned to its end as its content grows, as long as the person
 * has not scrolled away from the end (then it stays where they put it). When `active` ends, a
 * scroller still following shows the very end (what the last batch of events added).
 */
export function useFollowTail(
  scrollerRef: RefObject<HTMLElement | null>,
  contentRef: RefObject<HTMLElement | null>,
  active: boolean,
): void {
  const following = useRef(false);

  useEffect(() => {
    const scroller = scrollerRef.current;
    const content = contentRef.current;
    if (!scroller || !content) return;
    const toEnd = () => {
      scroller.scrollTop = scroller.scrollHeight;
    };
    if (!active) {
      if (!following.current) return;
      following.current = false;
      const frame = requestAnimationFrame(toEnd);
      return () => cancelAnimationFrame(frame);
    }
    const nearBottom = () => scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= NEAR_BOTTOM_PX;
    following.current = nearBottom();
    const onScroll = () => {
      following.current = nearBottom();
    };
    const observer = new ResizeObserver(() => {
      if (following.current) toEnd();
    });
    scroller.addEventListener('scroll', onScroll, { passive: true });
    observer.observe(content);
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, [scrollerRef, contentRef, active]);
}
