#!/bin/bash
# Print a line if the cluster minor version is not in the list AKS supports for its region.
set -euo pipefail
read -r version location < <(az aks show -g "$AZ_RESOURCE_GROUP" -n "$AKS_CLUSTER" --query '[kubernetesVersion, location]' -o tsv | paste -sd' ')
minor=$(echo "$version" | cut -d. -f1-2)
supported=$(az aks get-versions -l "$location" --query 'values[].version' -o tsv | cut -d. -f1-2 | sort -u)
if ! grep -qx "$minor" <<< "$supported"; then
  echo "cluster=$AKS_CLUSTER version=$version supported=[$(echo $supported | tr ' ' ',')]"
fi
