Bquantizelinear_34J
Jсы √≥рјг