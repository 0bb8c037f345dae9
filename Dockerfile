# One image for the migrate job, the worker and the API (`plangraph <verb>`).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
ENTRYPOINT ["node", "bin/plangraph.mjs"]
