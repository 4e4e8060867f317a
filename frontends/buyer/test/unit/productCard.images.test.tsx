// The feed card's photo (issue 13): the variant that fits (srcset of the media service's 200/640 px WebP copies,
// `sizes` of the grid), the first card fetched first, the others lazily, and a fixed 4:3 box so nothing jumps.
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { detailImage, FEED_CARD_SIZES, feedCardImage, VARIANT_WIDTHS } from '../../src/catalog/images.js';
import type { Product } from '../../src/catalog/types.js';
import { ProductCard, type ImagePriority } from '../../src/feed/ProductCard.js';

const product = (id: string, overrides: Partial<Product> = {}): Product => ({
  product_id: id,
  farmer_id: 'f1',
  product_name: 'White yam',
  description: 'Fresh from Oyo.',
  price: 2000,
  unit: 'heap',
  price_per_kg: 400,
  quantity: 12,
  kg: 60,
  status: 'available',
  tuber_type: 'yam',
  images: [`/files/${id}.jpg`],
  image_cards: [`/files/${id}.jpg.card.webp`],
  image_thumbs: [`/files/${id}.jpg.thumb.webp`],
  location: 'Ibadan',
  business_name: 'Ada Farms',
  cultural: '',
  created_at: new Date(Date.now() - 3 * 3_600_000).toISOString(),
  ...overrides,
});

function imageOf(card: Product, priority: ImagePriority): Element {
  const html = renderToStaticMarkup(
    <MemoryRouter>
      <ProductCard product={card} priority={priority} />
    </MemoryRouter>,
  );
  const img = /<img [^>]*>/.exec(html)?.[0];
  expect(img, html).toBeDefined();
  // A small reader of the attributes, enough for one <img>.
  const attributes = new Map([...img!.matchAll(/([a-zA-Z-]+)="([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), m[2]!.replace(/&amp;/g, '&')]));
  return { getAttribute: (name: string) => attributes.get(name.toLowerCase()) ?? null } as unknown as Element;
}

describe('feed card photo', () => {
  it('offers the card and thumbnail variants with the grid sizes, never the original', () => {
    const img = imageOf(product('p1'), 'lazy');
    expect(img.getAttribute('src')).toBe('/files/p1.jpg.card.webp');
    expect(img.getAttribute('srcset')).toBe(
      `/files/p1.jpg.thumb.webp ${VARIANT_WIDTHS.thumb}w, /files/p1.jpg.card.webp ${VARIANT_WIDTHS.card}w`,
    );
    expect(img.getAttribute('srcset')).not.toContain('/files/p1.jpg ');
    expect(img.getAttribute('sizes')).toBe(FEED_CARD_SIZES);
    // One slot per layout of feed.module.css: 3 columns from 1024 px, 2 from 768 px, else 1.
    expect(FEED_CARD_SIZES).toMatch(/^\(min-width: 1024px\) .+, \(min-width: 768px\) .+, calc\(100vw - \d+px\)$/);
  });

  it('keeps its 4:3 box before the photo arrives (width and height given)', () => {
    const img = imageOf(product('p1'), 'lazy');
    expect(Number(img.getAttribute('width')) / Number(img.getAttribute('height'))).toBeCloseTo(4 / 3);
  });

  it('loads the first card at once with high priority, the rest of the first row eagerly, the others lazily', () => {
    const first = imageOf(product('p1'), 'lcp');
    expect(first.getAttribute('loading')).toBe('eager');
    expect(first.getAttribute('fetchpriority')).toBe('high');
    const second = imageOf(product('p2'), 'eager');
    expect(second.getAttribute('loading')).toBe('eager');
    expect(second.getAttribute('fetchpriority')).toBeNull();
    const below = imageOf(product('p4'), 'lazy');
    expect(below.getAttribute('loading')).toBe('lazy');
    expect(below.getAttribute('fetchpriority')).toBeNull();
    expect(below.getAttribute('decoding')).toBe('async');
  });

  it('shows the original when a product has no variants (posted before them)', () => {
    expect(feedCardImage(product('old', { image_cards: [], image_thumbs: [] }))).toEqual({ src: '/files/old.jpg' });
    expect(feedCardImage(product('none', { images: [], image_cards: [], image_thumbs: [] }))).toBeNull();
  });
});

describe('product page photo', () => {
  it('offers the card variant and the original, the original as src', () => {
    const image = detailImage('/files/a.jpg', '/files/a.jpg.card.webp');
    expect(image.src).toBe('/files/a.jpg');
    expect(image.srcSet).toBe('/files/a.jpg.card.webp 640w, /files/a.jpg 2000w');
    expect(image.sizes).toMatch(/^\(min-width: 1024px\) .+, \(min-width: 900px\) .+, calc\(100vw - \d+px\)$/);
    expect(detailImage('/files/b.jpg', undefined)).toEqual({ src: '/files/b.jpg' });
  });
});

describe('feed card age', () => {
  it('titles the age with the full posting time in Lagos time (issue 25: not the device’s US style), one formatter for every card', () => {
    const lagos = new Intl.DateTimeFormat('en-NG', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZone: 'Africa/Lagos',
    });
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      const cards = [product('a'), product('b', { created_at: '2026-11-02T08:15:30.000Z' }), product('c')];
      const html = renderToStaticMarkup(
        <MemoryRouter>
          {cards.map((card) => (
            <ProductCard key={card.product_id} product={card} />
          ))}
        </MemoryRouter>,
      );
      const titles = [...html.matchAll(/<time [^>]*title="([^"]*)"/g)].map((m) => m[1]);
      expect(titles).toEqual(cards.map((card) => lagos.format(new Date(card.created_at))));
      expect(titles[1]).toBe('2 Nov 2026, 09:15:30');
      // The cards' titles made at most one formatter between them.
      expect(made.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      made.mockRestore();
    }
  });
});
