import type { BlockItem } from "@contracts/home";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import styles from "./home.module.css";

const ADVANCE_MS = 5000;

/** The home carousel (block position indexfocus): fades every 5 s, pauses under the pointer. */
export function Carousel({ slides }: { slides: BlockItem[] }) {
  const [current, setCurrent] = useState(0);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (paused || slides.length < 2) return;
    const timer = setInterval(() => setCurrent((i) => (i + 1) % slides.length), ADVANCE_MS);
    return () => clearInterval(timer);
  }, [paused, slides.length]);

  if (slides.length === 0) return null;
  return (
    <section
      className={styles.carousel}
      aria-roledescription="carousel"
      aria-label="焦点图"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      {slides.map((slide, i) => (
        <SlideLink key={`${slide.url}-${i}`} slide={slide} active={i === current}>
          <img
            src={slide.image}
            alt={slide.name}
            width={1200}
            height={400}
            className={styles.slideImage}
            loading={i === 0 ? "eager" : "lazy"}
            fetchPriority={i === 0 ? "high" : "low"}
          />
        </SlideLink>
      ))}
      {slides.length > 1 ? (
        <div className={styles.dots}>
          {slides.map((slide, i) => (
            <button
              key={`${slide.url}-${i}`}
              type="button"
              aria-label={`第${i + 1}张：${slide.name}`}
              aria-current={i === current}
              className={i === current ? `${styles.dot} ${styles.dotOn}` : styles.dot}
              onClick={() => setCurrent(i)}
            />
          ))}
        </div>
      ) : null}
    </section>
  );
}

/** Our own pages navigate in the app (the player keeps playing); other sites open in a new tab. */
function SlideLink({ slide, active, children }: { slide: BlockItem; active: boolean; children: React.ReactNode }) {
  const className = active ? `${styles.slide} ${styles.slideOn}` : styles.slide;
  const hidden = active ? undefined : true;
  return slide.url.startsWith("/") ? (
    <Link to={slide.url} className={className} aria-hidden={hidden} tabIndex={active ? 0 : -1}>
      {children}
    </Link>
  ) : (
    <a href={slide.url} className={className} aria-hidden={hidden} tabIndex={active ? 0 : -1} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}
