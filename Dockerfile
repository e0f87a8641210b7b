FROM node:20-bookworm-slim
# ffmpeg from Debian (current and patched) for the media worker; a font for the watermark text.
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg fonts-dejavu-core ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-fund --no-audit
COPY . .
RUN npm run build
# MALLOC_ARENA_MAX: glibc keeps memory freed by libvips' threads in an arena per thread; two
# arenas halve a worker's resident memory after image jobs (docs/operations.md, Memory)
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 MALLOC_ARENA_MAX=2
EXPOSE 3000
# node itself is the container's process (no npm, no shell between), so `docker stop`'s SIGTERM
# reaches the app and it drains within its SHUTDOWN_GRACE_MS (docker-compose.yml gives 30 s).
# --max-semi-space-size, --no-allocation-site-pretenuring: the server's flags, as `npm start` gives them (docs/performance.md)
CMD ["node", "--max-semi-space-size=64", "--no-allocation-site-pretenuring", "--import", "tsx", "scripts/start.ts"]
