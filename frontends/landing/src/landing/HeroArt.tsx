// Hand-drawn hero banner: a field cut open to show yam, sweet potato and cassava growing under the soil.
export function HeroArt({ title }: { title: string }) {
  return (
    <svg viewBox="0 0 600 440" role="img" aria-labelledby="hero-art-title" preserveAspectRatio="xMidYMid slice">
      <title id="hero-art-title">{title}</title>
      <defs>
        <linearGradient id="hero-sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#dff5e7" />
          <stop offset="1" stopColor="#fdf3dc" />
        </linearGradient>
        <linearGradient id="hero-soil" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#9a5f2c" />
          <stop offset="1" stopColor="#5c3418" />
        </linearGradient>
        <linearGradient id="hero-yam" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#a06a3b" />
          <stop offset="1" stopColor="#6e4220" />
        </linearGradient>
        <linearGradient id="hero-cassava" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#d29a5f" />
          <stop offset="1" stopColor="#a86f38" />
        </linearGradient>
      </defs>

      <rect width="600" height="440" fill="url(#hero-sky)" />
      <circle cx="488" cy="86" r="72" fill="#f6c343" opacity="0.22" />
      <circle cx="488" cy="86" r="44" fill="#f6c343" />

      {/* distant hills */}
      <path d="M0 205 C 90 150 170 170 250 196 C 330 222 420 150 600 182 L600 262 L0 262 Z" fill="#a7dcb4" />
      <path d="M0 232 C 120 196 220 214 320 230 C 430 247 520 206 600 222 L600 262 L0 262 Z" fill="#6cbf80" />

      {/* soil */}
      <rect y="252" width="600" height="188" fill="url(#hero-soil)" />
      <path d="M0 252 C 60 244 120 258 180 250 C 250 241 320 258 400 249 C 470 242 540 257 600 249 L600 262 L0 262 Z" fill="#4f8f3a" />
      <g fill="#b98049" opacity="0.55">
        <circle cx="40" cy="300" r="4" />
        <circle cx="92" cy="410" r="5" />
        <circle cx="230" cy="420" r="4" />
        <circle cx="250" cy="292" r="3" />
        <circle cx="372" cy="402" r="5" />
        <circle cx="540" cy="300" r="4" />
        <circle cx="566" cy="396" r="6" />
        <circle cx="520" cy="426" r="3" />
      </g>

      {/* roots */}
      <g stroke="#d9b48a" strokeWidth="2" fill="none" strokeLinecap="round" opacity="0.7">
        <path d="M138 262 C 120 290 100 300 84 330" />
        <path d="M300 262 C 300 280 282 286 270 296" />
        <path d="M470 262 C 500 286 520 292 548 318" />
      </g>

      {/* yam */}
      <path d="M142 262 C 168 272 186 322 180 372 C 175 414 136 426 126 392 C 116 356 122 294 142 262 Z" fill="url(#hero-yam)" />
      <g stroke="#5a3418" strokeWidth="2" strokeLinecap="round" opacity="0.6">
        <path d="M140 304 l10 -3" />
        <path d="M150 338 l12 -2" />
        <path d="M136 364 l10 2" />
        <path d="M156 392 l9 -4" />
      </g>

      {/* sweet potatoes */}
      <ellipse cx="282" cy="306" rx="36" ry="20" transform="rotate(24 282 306)" fill="#b4533a" />
      <ellipse cx="326" cy="322" rx="32" ry="18" transform="rotate(-18 326 322)" fill="#c8674b" />
      <ellipse cx="300" cy="354" rx="28" ry="15" transform="rotate(8 300 354)" fill="#a8472f" />
      <g fill="#e7a388" opacity="0.7">
        <circle cx="274" cy="300" r="2.5" />
        <circle cx="332" cy="316" r="2.5" />
        <circle cx="296" cy="352" r="2" />
      </g>

      {/* cassava */}
      <path d="M462 262 C 452 300 432 346 410 392 C 405 402 414 406 420 398 C 446 356 466 308 470 266 Z" fill="url(#hero-cassava)" />
      <path d="M468 264 C 474 312 480 356 478 410 C 478 420 488 420 489 410 C 492 358 486 306 474 262 Z" fill="url(#hero-cassava)" />
      <path d="M474 262 C 502 296 528 334 548 372 C 553 381 562 377 558 368 C 540 326 512 290 480 260 Z" fill="url(#hero-cassava)" />
      <g fill="#f3e6cf">
        <circle cx="414" cy="396" r="4" />
        <circle cx="483" cy="414" r="4" />
        <circle cx="553" cy="373" r="4" />
      </g>

      {/* plants above ground */}
      <g stroke="#1f7a3a" strokeWidth="5" strokeLinecap="round" fill="none">
        <path d="M142 256 C 142 220 150 196 146 170" />
        <path d="M300 256 C 300 228 292 210 296 186" />
        <path d="M468 256 C 468 222 476 200 470 166" />
      </g>
      <g fill="#22a04b">
        <ellipse cx="124" cy="196" rx="26" ry="11" transform="rotate(-28 124 196)" />
        <ellipse cx="166" cy="184" rx="26" ry="11" transform="rotate(24 166 184)" />
        <ellipse cx="138" cy="160" rx="22" ry="10" transform="rotate(-58 138 160)" />
        <ellipse cx="278" cy="212" rx="24" ry="11" transform="rotate(-24 278 212)" />
        <ellipse cx="318" cy="204" rx="24" ry="11" transform="rotate(26 318 204)" />
        <ellipse cx="294" cy="178" rx="18" ry="9" transform="rotate(-70 294 178)" />
      </g>
      <g fill="#15803d">
        {/* cassava's hand-shaped leaves */}
        <ellipse cx="446" cy="160" rx="30" ry="7" transform="rotate(-32 446 160)" />
        <ellipse cx="470" cy="140" rx="30" ry="7" transform="rotate(-88 470 140)" />
        <ellipse cx="494" cy="160" rx="30" ry="7" transform="rotate(32 494 160)" />
        <ellipse cx="452" cy="186" rx="24" ry="6" transform="rotate(-8 452 186)" />
        <ellipse cx="490" cy="188" rx="24" ry="6" transform="rotate(10 490 188)" />
      </g>
    </svg>
  );
}
