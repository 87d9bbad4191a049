
Bquantizelinear_103J

γχώÿ