output o {
  value = [1, 2][1e300]
}
