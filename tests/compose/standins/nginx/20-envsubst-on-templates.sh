#!/bin/sh
# As the official nginx image's: /etc/nginx/templates/*.template into /etc/nginx/conf.d,
# with the environment's variables (only those set) substituted.
set -e
ME=$(basename "$0")
template_dir="${NGINX_ENVSUBST_TEMPLATE_DIR:-/etc/nginx/templates}"
suffix="${NGINX_ENVSUBST_TEMPLATE_SUFFIX:-.template}"
output_dir="${NGINX_ENVSUBST_OUTPUT_DIR:-/etc/nginx/conf.d}"
filter="${NGINX_ENVSUBST_FILTER:-}"
defined_envs=$(printf '${%s} ' $(awk "END { for (name in ENVIRON) { print ( name ~ /${filter}/ ) ? name : \"\" } }" < /dev/null))
[ -d "$template_dir" ] || exit 0
if [ ! -w "$output_dir" ]; then
  echo "$ME: ERROR: $template_dir exists, but $output_dir is not writable" >&2
  exit 0
fi
find "$template_dir" -follow -type f -name "*$suffix" -print | while read -r template; do
  relative_path="${template#"$template_dir/"}"
  output_path="$output_dir/${relative_path%"$suffix"}"
  mkdir -p "$(dirname "$output_path")"
  echo "$ME: Running envsubst on $template to $output_path"
  envsubst "$defined_envs" < "$template" > "$output_path"
done
