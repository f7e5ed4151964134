resource "google_container_cluster" "test" {
  name               = "rcs-gke-test"
  location           = "europe-west1-b"
  initial_node_count = 1
}
