#yK~~u													LLL
if = {
  þÿÿÿalvue = -if
lvu_________________________________e = if
}
